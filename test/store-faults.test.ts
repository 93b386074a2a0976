/**
 * Faults of the store, injected: a call that throws inside the write queue fails the writes it
 * took with a problem document and leaves the queue working; a commit cut off by the database is
 * settled by looking for its row events. Runs on the store the suite is pointed at.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { createApp } from '../src/app.ts';
import { registryOf } from '../src/providers/providers.ts';
import { parseRowQuery } from '../src/query/parse-row-query.ts';
import { planRead } from '../src/query/plan.ts';
import type { LiveProvider } from '../src/providers/registry.ts';
import { CommitOutcomeUnknown, type Dialect } from '../src/store/dialect.ts';
import { PostgresDialect } from '../src/store/postgres/postgres-dialect.ts';
import { RowStore } from '../src/store/row-store.ts';
import { SqliteDialect } from '../src/store/sqlite/sqlite-dialect.ts';
import type { SheetStore } from '../src/store/store.ts';
import { guardAnswers } from './helpers/answer-guard.ts';
import { call } from './helpers/build.ts';
import { backend, openTestStore, readRows, scratchSheet } from './helpers/stores.ts';

async function serve(
  t: TestContext,
  store: SheetStore,
  providers: Record<string, LiveProvider> = {},
) {
  const app = await createApp(
    { store, providers: registryOf(providers) },
    { bodyLimit: 1_048_576, uploadLimit: 1_048_576, cacheSize: 0 },
  );
  t.after(() => app.close());
  guardAnswers(t, app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** A test store served over HTTP, with one sheet of a column `n` made through the API. */
async function servedSheet(t: TestContext) {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const url = await serve(t, store);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'faults', columns: ['n'] },
  });
  assert.equal(created.status, 201, created.text);
  return { store, url, id: (created.body as { id: string }).id };
}

/** Makes the store's `method` throw for the next `times` calls. */
function failNext(store: SheetStore, method: 'getSheet' | 'writeRows', times: number) {
  const real = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>;
  let left = times;
  (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    if (left-- > 0) return Promise.reject(new Error(`injected: ${method} failed`));
    return real(...args);
  };
}

for (const method of ['getSheet', 'writeRows'] as const) {
  test(`${backend}: a ${method} that throws in the write queue fails its writes with a problem document, and the next write lands`, async (t) => {
    const { store, url, id } = await servedSheet(t);
    const rows = `${url}/api/v1/${id}`;
    // The route reads the sheet once before queueing; only the queue's own calls fail.
    await call(rows);
    failNext(store, method, 1);
    const failed = await Promise.all(
      [1, 2, 3].map((n) => call(rows, { method: 'POST', body: { n } })),
    );
    for (const answer of failed) {
      assert.ok([201, 500].includes(answer.status), answer.text);
      if (answer.status === 500) {
        assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal((answer.body as { code: string }).code, 'internal-error');
      }
    }
    assert.ok(
      failed.some((answer) => answer.status === 500),
      'no write met the fault',
    );
    const next = await call(rows, { method: 'POST', body: { n: 4 } });
    assert.equal(next.status, 201, next.text);
    const landed = failed.filter((answer) => answer.status === 201).length + 1;
    assert.equal(((await call(rows)).body as unknown[]).length, landed);
  });
}

test(`${backend}: a provider whose write slot throws fails the waiting writes, and the queue goes on`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  // A sheet that a provider backs, with a provider that fails once before pushing anything.
  let slots = 0;
  const provider = {
    deadlineMs: 1000,
    canWrite: true,
    email: null,
    read: async () => ({ columns: ['n'], rows: [], source: googleSource, pushTags: new Map() }),
    changedSince: async () => ({ changed: false }),
    writeSlot: async () => {
      if (slots++ === 0) throw new Error('injected: no write slot');
    },
    push: async (_sheet: unknown, _effects: unknown, push: { plan: string }) => ({
      landed: true as const,
      plan: push.plan,
    }),
  };
  const url = await serve(t, store, { google: provider as never });
  const sheet = await store.createSheet(
    { id: 'g', name: 'g', columns: ['n'], source: googleSource, settings: { deleteEnabled: true } },
    [],
  );
  const first = await call(`${url}/api/v1/${sheet.id}`, { method: 'POST', body: { n: 1 } });
  assert.equal(first.status, 500, first.text);
  assert.equal((first.body as { code: string }).code, 'internal-error');
  const second = await call(`${url}/api/v1/${sheet.id}`, { method: 'POST', body: { n: 2 } });
  assert.equal(second.status, 201, second.text);
});

const googleSource = {
  provider: 'google' as const,
  spreadsheetId: 'x'.repeat(44),
  tab: 'T',
  tabId: 0,
};

/**
 * A dialect whose next write commits (or not) and then reports the connection lost, as a
 * database that goes away during COMMIT does.
 */
function cutCommit(dialect: Dialect, landed: boolean): Dialect {
  let armed = true;
  return new Proxy(dialect, {
    get(target, property, receiver) {
      if (property !== 'write') {
        const value = Reflect.get(target, property, receiver) as unknown;
        // The dialect's methods use private fields, so they run on the dialect itself.
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (work: Parameters<Dialect['write']>[0]) => {
        if (!armed) return target.write(work);
        armed = false;
        if (landed) {
          await target.write(work);
        } else {
          // The whole unit runs, then rolls back: as if the COMMIT never reached the database.
          const rollback = new Error('rollback');
          await target
            .write(function* () {
              yield* work();
              throw rollback;
            })
            .catch((error: unknown) => {
              if (error !== rollback) throw error;
            });
        }
        throw new CommitOutcomeUnknown('injected: connection lost during COMMIT');
      };
    },
  });
}

async function openDialect(t: TestContext): Promise<Dialect> {
  const { env, dispose } = await openTestStore();
  t.after(dispose);
  if (backend === 'sqlite') {
    const dialect = new SqliteDialect({
      path: `${env.SHEETPORT_DATA_DIR}/faults.db`,
      synchronous: 'normal',
      indexThreshold: 64,
    });
    t.after(() => dialect.close());
    return dialect;
  }
  const dialect = await PostgresDialect.open({
    connectionString: env.SHEETPORT_DATABASE_URL as string,
    indexThreshold: 64,
  });
  t.after(() => dialect.close());
  return dialect;
}

for (const landed of [true, false]) {
  test(`${backend}: a commit cut off by the database is settled by its events: ${landed ? 'landed, the write is acknowledged' : 'missing, 503 and nothing changed'}`, async (t) => {
    const dialect = await openDialect(t);
    const plain = new RowStore(dialect);
    await plain.createSheet(scratchSheet('s', ['n']), [[[1], [2]]]);
    const store = new RowStore(cutCommit(dialect, landed));
    const write = { op: { kind: 'append' as const, rows: [[3]] }, ifMatch: null };
    if (landed) {
      const [result] = await store.writeRows('s', [write]);
      // The sheet's two rows have ids 0 and 1: the row appended is 2.
      assert.deepEqual(result && 'outcome' in result ? result.outcome : result, {
        created: 1,
        keys: ['2'],
      });
    } else {
      await assert.rejects(store.writeRows('s', [write]), { code: 'store-unavailable' });
    }
    const { rows } = await plain.loadRows('s');
    assert.deepEqual(rows, landed ? [[1], [2], [3]] : [[1], [2]]);
  });
}

for (const landed of [true, false]) {
  test(`${backend}: a column's index cut off by the database fails its read with 503, and the next read is served: ${landed ? 'landed' : 'missing'}`, async (t) => {
    const dialect = await openDialect(t);
    const plain = new RowStore(dialect);
    const rows = Array.from({ length: 100 }, (_, n) => [n, n % 7]);
    await plain.createSheet(scratchSheet('s', ['n', 'seven']), [rows]);
    const store = new RowStore(cutCommit(dialect, landed));
    const sheet = await store.getSheet('s');
    assert.ok(sheet !== null);
    const plan = planRead(sheet, parseRowQuery({ seven: '3' }));
    // The first filter on `seven` indexes it, in a commit of its own: the one that is cut.
    await assert.rejects(readRows(store, sheet, plan), { code: 'store-unavailable' });
    assert.deepEqual(
      await readRows(store, sheet, plan),
      rows.filter(([, seven]) => seven === 3),
    );
  });
}

test(`${backend}: a sheet's change cut off by the database answers 504 store-outcome-unknown, not 500`, async (t) => {
  const { store, url, id } = await servedSheet(t);
  // Changing a sheet's settings does not look for its commit afterwards, as a row write does.
  store.updateSheet = () => Promise.reject(new CommitOutcomeUnknown('injected: COMMIT cut off'));
  const changed = await call(`${url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { name: 'renamed' },
  });
  assert.equal(changed.status, 504, changed.text);
  assert.equal((changed.body as { code: string }).code, 'store-outcome-unknown');
  assert.equal(changed.headers.get('retry-after'), '5');
});
