/**
 * PostgreSQL going away under load, and coming back: while it is away every request answers
 * within a bounded time with 503 `store-unavailable` and a Retry-After, never a 500; once it is
 * back, service resumes on its own; and no acknowledged row is lost, no row appears twice.
 * This file starts a PostgreSQL of its own, since it stops it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { createApp } from '../../src/app.ts';
import { openPostgresStore } from '../../src/store/open-store.ts';
import { guardAnswers } from '../helpers/answer-guard.ts';
import { call } from '../helpers/build.ts';
import { startEmbeddedPostgres } from '../helpers/embedded-postgres.ts';

interface Tally {
  acknowledged: Set<string>;
  /** Writes answered with neither success nor a promise that nothing landed. */
  unknown: Set<string>;
  statuses: Map<string, number>;
  slowestMs: number;
  /** Failures without a Retry-After, to show whole if any. */
  unexpected: string[];
}

function count(tally: Tally, answer: { status: number; body: unknown }, startedAt: number): void {
  const code = (answer.body as { code?: string } | null)?.code;
  const key = `${answer.status}${code === undefined ? '' : ` ${code}`}`;
  tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
  tally.slowestMs = Math.max(tally.slowestMs, Date.now() - startedAt);
}

test('a PostgreSQL outage answers 503 with Retry-After, heals on its own, and loses or doubles no row', async (t) => {
  const postgres = await startEmbeddedPostgres();
  t.after(() => postgres.stop());
  const store = await openPostgresStore({
    connectionString: postgres.url,
    poolSize: 4,
    connectTimeoutMs: 1000,
  });
  const app = await createApp(
    { store },
    { bodyLimit: 1_048_576, uploadLimit: 1_048_576, cacheSize: 0 },
  );
  t.after(async () => {
    await app.close();
    await store.database.close();
  });
  guardAnswers(t, app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'outage', columns: ['writer', 'seq'] },
  });
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;

  const tally: Tally = {
    acknowledged: new Set(),
    unknown: new Set(),
    statuses: new Map(),
    slowestMs: 0,
    unexpected: [],
  };
  let running = true;
  /** A writer sends its next row only once the last one is acknowledged, retrying on 503. */
  const writer = async (name: string) => {
    for (let seq = 0; running; seq++) {
      const row = `${name}-${seq}`;
      for (;;) {
        const startedAt = Date.now();
        const answer = await call(rows, { method: 'POST', body: { writer: name, seq: row } });
        count(tally, answer, startedAt);
        if (answer.status === 201) {
          tally.acknowledged.add(row);
          break;
        }
        if (answer.headers.get('retry-after') === null) tally.unexpected.push(answer.text);
        if (answer.status !== 503) {
          tally.unknown.add(row);
          break;
        }
        if (!running) break;
        await sleep(100);
      }
    }
  };
  const reader = async () => {
    while (running) {
      const startedAt = Date.now();
      const answer = await call(`${rows}?writer=w0`);
      count(tally, answer, startedAt);
      if (answer.status !== 200 && answer.headers.get('retry-after') === null) {
        tally.unexpected.push(answer.text);
      }
      await sleep(20);
    }
  };
  const load = [...['w0', 'w1', 'w2', 'w3', 'w4', 'w5'].map(writer), reader(), reader()];

  await sleep(700);
  await postgres.pause();
  await sleep(2500);
  await postgres.resume();
  // Service resumes on its own: wait for writes to be acknowledged again, then a little more.
  const before = tally.acknowledged.size;
  for (let waited = 0; tally.acknowledged.size < before + 20; waited += 100) {
    assert.ok(waited < 20_000, 'writes did not resume after the database came back');
    await sleep(100);
  }
  running = false;
  await Promise.all(load);

  assert.deepEqual(tally.unexpected, []);
  const statuses = Object.fromEntries(tally.statuses);
  t.diagnostic(
    `answers ${JSON.stringify(statuses)}; acknowledged ${tally.acknowledged.size}, slowest ${tally.slowestMs} ms`,
  );
  assert.ok(
    [...tally.statuses.keys()].every((key) =>
      ['200', '201', '503 store-unavailable', '504 store-outcome-unknown'].includes(key),
    ),
    JSON.stringify(statuses),
  );
  assert.ok((tally.statuses.get('503 store-unavailable') ?? 0) > 0, 'the outage was not seen');
  assert.ok(tally.slowestMs < 10_000, `a request waited ${tally.slowestMs} ms`);

  const all = await call(rows);
  const found = (all.body as { seq: string }[]).map((row) => row.seq);
  const copies = new Map<string, number>();
  for (const seq of found) copies.set(seq, (copies.get(seq) ?? 0) + 1);
  const doubled = [...copies].filter(([, n]) => n > 1);
  assert.deepEqual(doubled, [], 'rows present twice');
  const missing = [...tally.acknowledged].filter((seq) => !copies.has(seq));
  assert.deepEqual(missing, [], 'acknowledged rows missing');
  const unexplained = found.filter(
    (seq) => !tally.acknowledged.has(seq) && !tally.unknown.has(seq),
  );
  assert.deepEqual(unexplained, [], 'rows nobody was told were written');
});
