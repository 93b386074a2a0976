import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';
import { backend } from './helpers/stores.ts';
import { receiver } from './helpers/webhook-receiver.ts';

/** The value of one sample of a scrape, by its exact name and labels; 0 when absent. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  for (const line of scrape.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const have = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (have.size === wanted.length && wanted.every(([key, value]) => have.get(key) === value)) {
      return Number(match[3]);
    }
  }
  return 0;
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await call(`${url}/metrics`, { headers });
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return answer.text;
}

test('/metrics is off unless SHEETPORT_METRICS turns it on', async (t) => {
  const { url } = await build(t);
  const answer = await call(`${url}/metrics`);
  assert.equal(answer.status, 404);
  assert.equal((answer.body as { code: string }).code, 'route-not-found');
});

test('after a known workload, /metrics counts requests by route and status, cache lookups, write batches and store operations', async (t) => {
  const { url } = await build(t, { metrics: true, cacheSize: 1_000_000 });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'm', columns: ['name', 'age'], rows: [{ name: 'Ann', age: 31 }] },
  });
  assert.equal(created.status, 201);
  const id = (created.body as { id: string }).id;
  const rows = `${url}/api/v1/${id}`;
  for (let i = 0; i < 3; i++) assert.equal((await call(`${rows}?name=Ann`)).status, 200);
  assert.equal((await call(`${rows}?age=__zz(1)`)).status, 400);
  for (const name of ['Bob', 'Cy']) {
    assert.equal((await call(rows, { method: 'POST', body: { name, age: 40 } })).status, 201);
  }

  const text = await scrape(url);
  const route = '/api/v1/:sheetId';
  const requests = (method: string, status: string) =>
    sample(text, 'sheetport_http_requests_total', { route, method, status });
  assert.equal(requests('GET', '200'), 3);
  assert.equal(requests('GET', '400'), 1);
  assert.equal(requests('POST', '201'), 2);
  assert.equal(
    sample(text, 'sheetport_http_request_duration_seconds_count', {
      route,
      method: 'POST',
      status: '201',
    }),
    2,
  );
  assert.equal(
    sample(text, 'sheetport_http_requests_total', {
      route: '/admin/v1/sheets',
      method: 'POST',
      status: '201',
    }),
    1,
  );
  // Routes are patterns: no sheet id (nor any key) appears in a label.
  assert.ok(!text.includes(id), 'the sheet id is in the scrape');

  // The same read three times: two misses (an answer is kept once its read is asked for a
  // second time), then a hit.
  assert.equal(sample(text, 'sheetport_read_cache_lookups_total', { result: 'miss' }), 2);
  assert.equal(sample(text, 'sheetport_read_cache_lookups_total', { result: 'hit' }), 1);
  assert.equal(
    sample(text, 'sheetport_store_operation_duration_seconds_count', { operation: 'readJson' }),
    2,
  );

  // Two POSTs, one after the other: two commits of one write each, on a sheet made from scratch.
  assert.equal(sample(text, 'sheetport_write_batch_size_count', { kind: 'scratch' }), 2);
  assert.equal(sample(text, 'sheetport_write_batch_size_sum', { kind: 'scratch' }), 2);
  assert.match(text, /# TYPE sheetport_write_queue_depth gauge/);

  // PostgreSQL has a pool of connections; SQLite one connection and no such gauge.
  const idle = /^sheetport_store_connections\{state="idle"\} \d+$/m.test(text);
  assert.equal(idle, backend === 'postgres');
});

test('with an administrator token, /metrics needs it', async (t) => {
  const adminToken = 'metrics-administrator-token-0123';
  const { url } = await build(t, { metrics: true, adminToken });
  const refused = await call(`${url}/metrics`);
  assert.equal(refused.status, 401);
  assert.equal((refused.body as { code: string }).code, 'unauthorized');
  await scrape(url, { authorization: `Bearer ${adminToken}` });
});

test('upstream requests are counted by outcome: a 429, a write whose answer was lost, and the retries after them', async (t) => {
  const google = await setup(t, { app: { metrics: true } });
  const id = await connect(google);
  const before = await scrape(google.url);
  const reads = sample(before, 'sheetport_upstream_requests_total', {
    provider: 'google',
    request: 'read',
    outcome: 'ok',
  });
  assert.ok(reads >= 1, 'connecting read the spreadsheet');

  google.emulator.failNext(1, { status: 429, when: 'before', only: 'writes' });
  const first = await call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Eva' } });
  assert.equal(first.status, 201, first.text);
  google.emulator.failNext(1, { status: 500, when: 'after', only: 'writes' });
  const second = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Ivo' },
  });
  assert.equal(second.status, 201, second.text);

  const text = await scrape(google.url);
  const writes = (outcome: string) =>
    sample(text, 'sheetport_upstream_requests_total', {
      provider: 'google',
      request: 'write',
      outcome,
    });
  assert.equal(writes('rate_limited'), 1);
  assert.equal(writes('ambiguous'), 1);
  // The 429 was sent again and landed; the lost answer was read back and found applied.
  assert.equal(writes('ok'), 1);
  assert.equal(
    sample(text, 'sheetport_upstream_retries_total', { provider: 'google', request: 'write' }),
    1,
  );
});

test('webhook metrics: events waiting for a failing receiver are the backlog, and its refusals are failed deliveries', async (t) => {
  const hook = await receiver(t, [500, 500, 500]);
  const { url } = await build(t, {
    metrics: true,
    webhooks: { allowPrivate: true, pollMs: 50, retryDelaysMs: [60_000] },
  });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'hooked', columns: ['name'] },
  });
  const id = (created.body as { id: string }).id;
  const made = await call(`${url}/admin/v1/sheets/${id}/webhooks`, {
    method: 'POST',
    body: { url: hook.url },
  });
  assert.equal(made.status, 201, made.text);
  for (const name of ['a', 'b', 'c']) {
    assert.equal(
      (await call(`${url}/api/v1/${id}`, { method: 'POST', body: { name } })).status,
      201,
    );
  }
  await hook.until(1);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const text = await scrape(url);
  // The first event failed and waits a minute for its retry; the two after it wait behind it.
  assert.equal(sample(text, 'sheetport_webhook_backlog'), 3);
  assert.equal(sample(text, 'sheetport_webhook_deliveries_total', { outcome: 'failed' }), 1);
  assert.equal(sample(text, 'sheetport_webhook_deliveries_total', { outcome: 'delivered' }), 0);
});
