import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test, type TestContext } from 'node:test';
import { runInNewContext } from 'node:vm';
import { Webhook } from 'standardwebhooks';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';
import { quiet } from './helpers/until.ts';
import { receiver, type Delivery } from './helpers/webhook-receiver.ts';

const quick: AppOptions['webhooks'] = {
  allowPrivate: true,
  pollMs: 50,
  retryDelaysMs: [50, 100],
  timeoutMs: 300,
};

/**
 * How long a check that nothing more arrives waits after the last arrival: longer than an attempt
 * can hang, then wait for its retry, then for the next poll to pick it up, so that a late
 * duplicate or a stray retry would show within it.
 */
const lateWindowMs = quick.timeoutMs! + Math.max(...quick.retryDelaysMs!) + 2 * quick.pollMs!;

async function sheetWith(t: TestContext, options: Partial<AppOptions> = { webhooks: quick }) {
  const built = await build(t, options);
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'hooked', columns: ['name', 'age'], rows: [{ name: 'Ann', age: 31 }] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  await call(`${built.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { deleteEnabled: true },
  });
  const webhooks = `${built.url}/admin/v1/sheets/${id}/webhooks`;
  return { ...built, id, rows: `${built.url}/api/v1/${id}`, webhooks };
}

async function addWebhook(webhooks: string, body: object) {
  const created = await call(webhooks, { method: 'POST', body });
  assert.equal(created.status, 201, created.text);
  return created.body as { id: string; secret: string; events: string[]; url: string };
}

/** The Standard Webhooks check, written from the specification, not from the server's code. */
function verify(secret: string, delivery: Delivery): boolean {
  const id = delivery.headers['webhook-id'] as string;
  const timestamp = delivery.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.split('_')[1] ?? '', 'base64');
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${delivery.body}`)
    .digest('base64');
  const signatures = String(delivery.headers['webhook-signature']).split(' ');
  return signatures.some((signature) => signature === `v1,${expected}`);
}

test('webhooks are made with a secret shown once, listed without it, and removed', async (t) => {
  const { webhooks } = await sheetWith(t);
  const made = await addWebhook(webhooks, { url: 'https://93.184.215.14/hook' });
  assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(made.secret.slice(6), 'base64').length, 32);
  assert.deepEqual(made.events, [
    'rows.created',
    'rows.updated',
    'rows.deleted',
    'columns.changed',
  ]);
  const only = await addWebhook(webhooks, {
    url: 'https://93.184.215.14/deletes',
    events: ['rows.deleted'],
  });
  assert.deepEqual(only.events, ['rows.deleted']);

  const listed = (await call(webhooks)).body as Record<string, unknown>[];
  assert.deepEqual(
    listed.map((webhook) => [webhook.id, webhook.url, 'secret' in webhook]),
    [
      [made.id, 'https://93.184.215.14/hook', false],
      [only.id, 'https://93.184.215.14/deletes', false],
    ],
  );
  assert.equal((await call(`${webhooks}/${made.id}`, { method: 'DELETE' })).status, 204);
  const missing = await call(`${webhooks}/${made.id}`, { method: 'DELETE' });
  assert.equal(missing.status, 404);
  assert.equal((missing.body as { code: string }).code, 'webhook-not-found');
  assert.equal(((await call(webhooks)).body as unknown[]).length, 1);
});

test('a webhook to a non-http URL or with unknown event types is refused', async (t) => {
  const { webhooks } = await sheetWith(t);
  for (const [body, code] of [
    [{ url: 'ftp://example.com/x' }, 'invalid-webhook'],
    [{ url: 'not a url' }, 'invalid-webhook'],
    [{ url: 'https://user:pw@example.com/' }, 'invalid-webhook'],
    [{ url: 'https://example.com/', events: ['rows.moved'] }, 'invalid-body'],
    [{ url: 'https://example.com/', events: [] }, 'invalid-body'],
  ] as const) {
    const answer = await call(webhooks, { method: 'POST', body });
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal((answer.body as { code: string }).code, code, JSON.stringify(body));
  }
  assert.deepEqual((await call(webhooks)).body, []);
});

test('destinations on loopback, private, link-local or metadata addresses are refused unless allowed', async (t) => {
  const { webhooks } = await sheetWith(t, { webhooks: { ...quick, allowPrivate: false } });
  for (const url of [
    'http://127.0.0.1:9/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[fd00:ec2::254]/hook',
    'http://0.0.0.0/hook',
    'http://[::127.0.0.1]/hook',
    'http://[::ffff:0:127.0.0.1]/hook',
    'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'http://[64:ff9b:1::a00:1]/hook',
    'http://[2002:7f00:1::]/hook',
    'http://[2001:0:7f00:1::808:808]/hook',
    'http://[fec0::1]/hook',
  ]) {
    const answer = await call(webhooks, { method: 'POST', body: { url } });
    assert.equal(answer.status, 400, url);
    assert.equal((answer.body as { code: string }).code, 'webhook-destination-refused', url);
  }
  assert.deepEqual((await call(webhooks)).body, []);
});

test('each committed write is delivered once, signed per Standard Webhooks, with the outbox body', async (t) => {
  const { rows, webhooks, store, id } = await sheetWith(t);
  const hook = await receiver(t);
  const made = await addWebhook(webhooks, { url: hook.url });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'Bob' } })).status, 201);
  assert.equal(
    (await call(`${rows}?name=Bob`, { method: 'PATCH', body: { age: 28 } })).status,
    200,
  );
  assert.equal((await call(`${rows}?_id=0`, { method: 'DELETE' })).status, 200);
  const received = await hook.until(3);
  const outbox = await store.eventsAfter(id, null, 10);
  assert.deepEqual(
    received.map((delivery) => delivery.body),
    outbox.map((event) => event.body),
  );
  for (const delivery of received) {
    assert.equal(delivery.headers['content-type'], 'application/json');
    assert.equal(delivery.headers['webhook-id'], (JSON.parse(delivery.body) as { id: string }).id);
    const age = Date.now() / 1000 - Number(delivery.headers['webhook-timestamp']);
    assert.ok(age >= 0 && age < 30, `timestamp ${String(delivery.headers['webhook-timestamp'])}`);
    assert.ok(verify(made.secret, delivery), 'the signature verifies');
    assert.ok(
      !verify(made.secret, { ...delivery, body: `${delivery.body} ` }),
      'a changed body fails',
    );
  }
  assert.equal(await quiet(() => hook.received.length, 'deliveries', lateWindowMs), 3);
});

type Verifier = (secret: string, headers: Delivery['headers'], rawBody: string) => boolean;

/** The docs' verification snippet, run as it is printed there. */
async function readmeVerifier(): Promise<Verifier> {
  const readme = await readFile(new URL('../docs/events-and-webhooks.md', import.meta.url), 'utf8');
  const snippet =
    /```js\n(import \{ createHmac, timingSafeEqual \} from 'node:crypto';\n[^]*?)```/.exec(
      readme,
    )?.[1];
  assert.ok(snippet !== undefined, 'the webhooks page shows how to verify a delivery');
  const code = `${snippet.replace(/^import .*$/m, '')}\nverifyWebhook;`;
  return runInNewContext(code, { createHmac, timingSafeEqual, Buffer }) as Verifier;
}

test("a real delivery passes the README's check and the standardwebhooks package; forged, cut and replayed ones fail", async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t);
  const made = await addWebhook(webhooks, { url: hook.url });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'Bob' } })).status, 201);
  const [delivery] = await hook.until(1);
  assert.ok(delivery !== undefined);
  const headers = delivery.headers;
  const readme = await readmeVerifier();
  const library = (h: Delivery['headers'], body: string) => {
    try {
      new Webhook(made.secret).verify(body, h as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };
  const signed = (timestamp: number) => ({
    ...headers,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', Buffer.from(made.secret.slice(6), 'base64'))
      .update(`${String(headers['webhook-id'])}.${timestamp}.${delivery.body}`)
      .digest('base64')}`,
  });
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, Delivery['headers'], string, boolean][] = [
    ['the delivery as sent', headers, delivery.body, true],
    ['another body', headers, delivery.body.replace('Bob', 'Eve'), false],
    [
      'a signature of another length',
      { ...headers, 'webhook-signature': 'v1,c2hvcnQ=' },
      delivery.body,
      false,
    ],
    ['no signature', { ...headers, 'webhook-signature': '' }, delivery.body, false],
    ['a timestamp 10 minutes old, signed', signed(now - 600), delivery.body, false],
    ['a timestamp 10 minutes ahead, signed', signed(now + 600), delivery.body, false],
    ['a timestamp 1 minute old, signed', signed(now - 60), delivery.body, true],
    [
      'another timestamp, same signature',
      { ...headers, 'webhook-timestamp': String(now - 120) },
      delivery.body,
      false,
    ],
  ];
  for (const [what, h, body, valid] of cases) {
    assert.equal(readme(made.secret, h, body), valid, `README: ${what}`);
    assert.equal(library(h, body), valid, `standardwebhooks: ${what}`);
  }
});

test('failures and timeouts are retried with the later events waiting, in order; the log shows every attempt', async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t, [500, 'hang', 503]);
  const made = await addWebhook(webhooks, { url: hook.url });
  for (const name of ['one', 'two', 'three']) {
    assert.equal((await call(rows, { method: 'POST', body: { name } })).status, 201);
  }
  const received = await hook.until(6);
  const names = received.map(
    (delivery) =>
      (JSON.parse(delivery.body) as { data: { rows: { name: string }[] } }).data.rows[0]?.name,
  );
  // Three failed attempts at the first event, then each event once, in order.
  assert.deepEqual(names, ['one', 'one', 'one', 'one', 'two', 'three']);
  type Attempt = {
    attempt: number;
    status: number | null;
    error: string | null;
    nextRetryAt: string | null;
  };
  const attempts = async () => (await call(`${webhooks}/${made.id}/deliveries`)).body as Attempt[];
  // The log gets an attempt once its answer is in; both grow only, so their sum settles last.
  await quiet(
    async () => hook.received.length + (await attempts()).length,
    'deliveries and their log',
    lateWindowMs,
  );
  assert.equal(hook.received.length, 6);
  const log = await attempts();
  assert.deepEqual(
    log.reverse().map((entry) => [entry.attempt, entry.status, entry.nextRetryAt !== null]),
    [
      [1, 500, true],
      [2, null, true],
      [3, 503, true],
      [4, 200, false],
      [1, 200, false],
      [1, 200, false],
    ],
  );
  assert.match(log[1]?.error ?? '', /no answer within 300 ms/);
});

test('the DNS lookup counts within the delivery timeout: a resolver that never answers fails the attempt in time', async (t) => {
  let hang = true;
  const lookups: string[] = [];
  const resolver = async (host: string) => {
    lookups.push(host);
    if (hang) await new Promise(() => {});
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const { rows, webhooks } = await sheetWith(t, { webhooks: { ...quick, resolver } });
  const hook = await receiver(t);
  const made = await addWebhook(webhooks, { url: hook.url.replace('127.0.0.1', 'localhost') });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'one' } })).status, 201);
  const attempts = async (count: number) => {
    for (const deadline = Date.now() + 5000; ;) {
      const log = (await call(`${webhooks}/${made.id}/deliveries`)).body as { error: string }[];
      if (log.length >= count) return log;
      assert.ok(Date.now() < deadline, 'the attempt never ended');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const [first] = await attempts(1);
  assert.match(first?.error ?? '', /"localhost" does not resolve \(no answer within 300 ms\)/);
  assert.equal(hook.received.length, 0);
  hang = false;
  await hook.until(1);
  assert.ok(lookups.every((host) => host === 'localhost'));
});

test('410 Gone switches a webhook off: nothing more is sent to it', async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t, [410]);
  const made = await addWebhook(webhooks, { url: hook.url });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'gone' } })).status, 201);
  await hook.until(1);
  assert.equal((await call(rows, { method: 'POST', body: { name: 'after' } })).status, 201);
  assert.equal(await quiet(() => hook.received.length, 'deliveries', lateWindowMs), 1);
  const [listed] = (await call(webhooks)).body as { id: string; disabledAt: string | null }[];
  assert.equal(listed?.id, made.id);
  assert.ok(listed?.disabledAt !== null, 'the webhook is off');
});

test('a webhook is sent only the event types it asked for', async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t);
  await addWebhook(webhooks, { url: hook.url, events: ['rows.deleted'] });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'Bob' } })).status, 201);
  assert.equal((await call(`${rows}?name=Bob`, { method: 'DELETE' })).status, 200);
  const [only] = await hook.until(1);
  assert.equal((JSON.parse(only?.body ?? '{}') as { type: string }).type, 'rows.deleted');
  assert.equal(await quiet(() => hook.received.length, 'deliveries', lateWindowMs), 1);
});

test('an event that keeps failing is given up on after the retry period, and the next one goes on', async (t) => {
  const { rows, webhooks } = await sheetWith(t, { webhooks: { ...quick, giveUpMs: 200 } });
  const hook = await receiver(t, [500, 500, 500, 500, 500, 500, 500, 500]);
  const made = await addWebhook(webhooks, { url: hook.url });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'doomed' } })).status, 201);
  assert.equal((await call(rows, { method: 'POST', body: { name: 'next' } })).status, 201);
  const deadline = Date.now() + 10_000;
  let log: { attempt: number; status: number | null; error: string | null }[] = [];
  for (;;) {
    log = (await call(`${webhooks}/${made.id}/deliveries`)).body as typeof log;
    if (log.some((entry) => entry.error?.includes('given up on'))) break;
    assert.ok(Date.now() < deadline, JSON.stringify(log));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const names = (await hook.until(hook.received.length)).map(
    (delivery) =>
      (JSON.parse(delivery.body) as { data: { rows: { name: string }[] } }).data.rows[0]?.name,
  );
  assert.equal(names[0], 'doomed');
  // Once given up on, the event is not sent again; the next one is.
  const last = await hook.until(names.length + 1);
  const lastName = (JSON.parse(last.at(-1)?.body ?? '{}') as { data: { rows: { name: string }[] } })
    .data.rows[0]?.name;
  assert.equal(lastName, 'next');
});

test('writes wake the deliveries of a sheet whose webhook was added on this server, without waiting for the poll', async (t) => {
  // A poll once a minute: only the start-up poll runs during the test, before any webhook.
  const { rows, webhooks } = await sheetWith(t, { webhooks: { ...quick, pollMs: 60_000 } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const hook = await receiver(t);
  await addWebhook(webhooks, { url: hook.url });
  assert.equal((await call(rows, { method: 'POST', body: { name: 'now' } })).status, 201);
  const [delivery] = await hook.until(1, 3000);
  const body = JSON.parse(delivery?.body ?? '{}') as { data: { rows: { name: string }[] } };
  assert.equal(body.data.rows[0]?.name, 'now');
});

/** Verifies a delivery with the `standardwebhooks` package, as a receiver holding `secret` would. */
function verifiedBy(secret: string, delivery: Delivery): boolean {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
      name,
      String(delivery.headers[name]),
    ]),
  );
  try {
    new Webhook(secret).verify(delivery.body, headers);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the clock has passed `moment`: the condition an overlap's end waits on. */
async function past(moment: string): Promise<void> {
  const at = Date.parse(moment);
  while (Date.now() <= at) {
    await new Promise((resolve) => setTimeout(resolve, at - Date.now() + 1));
  }
}

test('a rotated secret signs beside the old one for the overlap, then alone', async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t);
  const made = await addWebhook(webhooks, { url: hook.url });
  const write = async (name: string) =>
    assert.equal((await call(rows, { method: 'POST', body: { name } })).status, 201);

  await write('before');
  const [before] = await hook.until(1);
  assert.ok(before !== undefined && verifiedBy(made.secret, before));

  const rotated = await call(`${webhooks}/${made.id}/rotate-secret`, {
    method: 'POST',
    body: { overlapSeconds: 2 },
  });
  assert.equal(rotated.status, 200, rotated.text);
  const { secret, previousSecretExpiresAt } = rotated.body as {
    secret: string;
    previousSecretExpiresAt: string;
  };
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.notEqual(secret, made.secret);
  assert.ok(!verifiedBy(secret, before), 'the new secret is new');
  const listed = (await call(webhooks)).body as Record<string, unknown>[];
  assert.deepEqual(
    listed.map((webhook) => [webhook.previousSecretExpiresAt, 'secret' in webhook]),
    [[previousSecretExpiresAt, false]],
  );

  await write('during');
  const during = (await hook.until(2))[1] as Delivery;
  assert.ok(Date.now() < Date.parse(previousSecretExpiresAt), 'delivered within the overlap');
  assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
  assert.ok(verifiedBy(secret, during), 'the new secret verifies during the overlap');
  assert.ok(verifiedBy(made.secret, during), 'the old secret verifies during the overlap');
  assert.ok(verify(made.secret, during) && verify(secret, during));

  await past(previousSecretExpiresAt);
  await write('after');
  const after = (await hook.until(3))[2] as Delivery;
  assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
  assert.ok(verifiedBy(secret, after), 'the new secret verifies after the overlap');
  assert.ok(!verifiedBy(made.secret, after), 'the old secret fails after the overlap');
  assert.equal(
    ((await call(webhooks)).body as Record<string, unknown>[])[0]?.previousSecretExpiresAt,
    null,
  );
});

test('a secret rotated with overlap 0 stops signing at once; unknown webhooks and bad overlaps are refused', async (t) => {
  const { rows, webhooks } = await sheetWith(t);
  const hook = await receiver(t);
  const made = await addWebhook(webhooks, { url: hook.url });
  const rotated = await call(`${webhooks}/${made.id}/rotate-secret`, {
    method: 'POST',
    body: { overlapSeconds: 0 },
  });
  assert.equal(rotated.status, 200, rotated.text);
  const { secret, previousSecretExpiresAt } = rotated.body as {
    secret: string;
    previousSecretExpiresAt: string | null;
  };
  assert.equal(previousSecretExpiresAt, null);
  assert.equal((await call(rows, { method: 'POST', body: { name: 'x' } })).status, 201);
  const [delivery] = await hook.until(1);
  assert.ok(delivery !== undefined);
  assert.ok(verifiedBy(secret, delivery) && !verifiedBy(made.secret, delivery));

  const unknown = await call(`${webhooks}/wh_nope/rotate-secret`, { method: 'POST' });
  assert.equal(unknown.status, 404);
  assert.equal((unknown.body as { code: string }).code, 'webhook-not-found');
  for (const overlapSeconds of [-1, 0.5, 'a day', 31 * 86_400]) {
    const answer = await call(`${webhooks}/${made.id}/rotate-secret`, {
      method: 'POST',
      body: { overlapSeconds },
    });
    assert.equal(answer.status, 400, JSON.stringify(overlapSeconds));
    assert.equal((answer.body as { code: string }).code, 'invalid-body');
  }
  // The refused rotations left the secret as it was.
  assert.equal((await call(rows, { method: 'POST', body: { name: 'y' } })).status, 201);
  const last = (await hook.until(2))[1] as Delivery;
  assert.ok(verifiedBy(secret, last));
});
