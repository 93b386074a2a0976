import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startGoogleSheetsEmulator } from '../google-emulator/index.ts';
import { call } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server-process.ts';
import { backend, openTestStore } from '../helpers/stores.ts';

type Row = Record<string, unknown>;

/**
 * Several `sheetport serve` processes on one fresh PostgreSQL database, each killed when the
 * test ends. Runs only in the PostgreSQL pass of the suite: SQLite has one server per file.
 */
async function serversOnOneDatabase(
  t: TestContext,
  count: number,
  settings: Record<string, string> = {},
): Promise<{ servers: RunningServer[]; start: () => Promise<RunningServer> }> {
  assert.equal(backend, 'postgres', 'run through npm run test:postgres');
  const { env, dispose } = await openTestStore();
  const kills: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const kill of kills) await kill();
    await dispose();
  });
  const start = () => startServer({ ...env, ...settings }, (kill) => kills.push(kill));
  const servers = await Promise.all(Array.from({ length: count }, start));
  return { servers, start };
}

async function createSheet(url: string, body: Record<string, unknown>): Promise<string> {
  const created = await call(`${url}/admin/v1/sheets`, { method: 'POST', body });
  assert.equal(created.status, 201, created.text);
  return (created.body as { id: string }).id;
}

async function read(target: string): Promise<Row[]> {
  const reply = await call(target);
  assert.equal(reply.status, 200, reply.text);
  return reply.body as Row[];
}

const versionOf = (reply: { headers: Headers }) =>
  Number(/^W\/"(\d+)"$/.exec(reply.headers.get('etag') ?? '')?.[1] ?? Number.NaN);

type Write =
  | { kind: 'append'; key: string }
  | { kind: 'patch'; id: number; n: number }
  | { kind: 'delete'; id: number };

test('three servers on one database agree, and equal a serial replay of the acknowledged writes', async (t) => {
  const { servers } = await serversOnOneDatabase(t, 3);
  const initial = Array.from({ length: 20 }, (_, i) => ({ key: `i${i}`, n: 0 }));
  const id = await createSheet(servers[0]?.url ?? '', {
    name: 'shared',
    columns: ['key', 'n'],
    rows: initial,
  });
  const start = versionOf(await call(`${servers[0]?.url}/api/v1/${id}`));

  const writes: Write[] = Array.from({ length: 200 }, (_, i) =>
    i % 10 < 4
      ? { kind: 'append', key: `a${i}` }
      : i % 10 < 7
        ? { kind: 'patch', id: (i * 7) % 25, n: i }
        : { kind: 'delete', id: (i * 11) % 25 },
  );
  const acknowledged: { write: Write; version: number }[] = [];
  await Promise.all(
    writes.map(async (write, i) => {
      const rows = `${servers[i % servers.length]?.url}/api/v1/${id}`;
      const reply =
        write.kind === 'append'
          ? await call(rows, { method: 'POST', body: { key: write.key, n: 0 } })
          : write.kind === 'patch'
            ? await call(`${rows}?_id=${write.id}`, { method: 'PATCH', body: { n: write.n } })
            : await call(`${rows}?_id=${write.id}`, { method: 'DELETE' });
      if (reply.status < 300) acknowledged.push({ write, version: versionOf(reply) });
      else assert.equal(reply.status, 404, `only an _id past the end may fail: ${reply.text}`);
    }),
  );

  for (const kind of ['append', 'patch', 'delete']) {
    assert.ok(
      acknowledged.filter((a) => a.write.kind === kind).length >= 20,
      `enough ${kind}s went through`,
    );
  }
  acknowledged.sort((a, b) => a.version - b.version);
  assert.deepEqual(
    acknowledged.map((a) => a.version),
    acknowledged.map((_, i) => start + i + 1),
    'every acknowledged write made one version, none lost and none twice',
  );
  const model: Row[] = initial.map((row) => ({ ...row }));
  for (const { write } of acknowledged) {
    if (write.kind === 'append') model.push({ key: write.key, n: 0 });
    else {
      assert.ok(write.id < model.length, `replay: _id ${write.id} exists at its turn`);
      if (write.kind === 'patch') (model[write.id] as Row).n = write.n;
      else model.splice(write.id, 1);
    }
  }
  for (const server of servers) {
    assert.deepEqual(await read(`${server.url}/api/v1/${id}`), model, `served by ${server.url}`);
  }
});

test('a server busy with reads sees every write and setting acknowledged on another before the read', async (t) => {
  const [a, b] = (await serversOnOneDatabase(t, 2, { SHEETPORT_RATE_LIMIT_PER_ADDRESS: '0' }))
    .servers as [RunningServer, RunningServer];
  const id = await createSheet(a.url, {
    name: 'shared',
    columns: ['key'],
    rows: [{ key: 'first' }],
  });
  // Reads that keep the second server's sheet lookups batched while the test writes on the first.
  let busy = true;
  const load = Array.from({ length: 12 }, async () => {
    let n = 0;
    while (busy) await call(`${b.url}/api/v1/${id}?key=load${n++ % 5}`);
  });
  try {
    for (let i = 0; i < 40; i++) {
      const written = await call(`${a.url}/api/v1/${id}`, {
        method: 'POST',
        body: { key: `k${i}` },
      });
      assert.equal(written.status, 201, written.text);
      const seen = await call(`${b.url}/api/v1/${id}?key=k${i}`);
      assert.deepEqual(seen.body, [{ key: `k${i}` }], `write ${i} is seen on the other server`);
      assert.ok(versionOf(seen) >= versionOf(written), `version of read ${i}`);
      if (i % 8 !== 7) continue;
      // A setting changed on one server holds on the other from the next request.
      const deleteEnabled = i % 16 === 7;
      const patched = await call(`${a.url}/admin/v1/sheets/${id}`, {
        method: 'PATCH',
        body: { deleteEnabled },
      });
      assert.equal(patched.status, 200, patched.text);
      const deleted = await call(`${b.url}/api/v1/${id}?key=none`, { method: 'DELETE' });
      assert.equal(deleted.status, deleteEnabled ? 200 : 405, deleted.text);
    }
  } finally {
    busy = false;
    await Promise.all(load);
  }
});

test('a server killed in the middle loses nothing it acknowledged', async (t) => {
  const { servers, start } = await serversOnOneDatabase(t, 2);
  const [survivor, victim] = servers as [RunningServer, RunningServer];
  const id = await createSheet(survivor.url, { name: 'shared', columns: ['key'] });
  const acknowledged: string[] = [];
  let crash: Promise<void> | null = null;
  await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const server = i % 2 === 0 ? survivor : victim;
      const key = `k${i}`;
      try {
        const reply = await call(`${server.url}/api/v1/${id}`, { method: 'POST', body: { key } });
        if (reply.status === 201) acknowledged.push(key);
        if (acknowledged.length === 100) crash ??= victim.crash();
      } catch {
        assert.equal(server, victim, 'only requests to the killed server may go unanswered');
      }
    }),
  );
  await crash;
  assert.ok(acknowledged.length >= 100);
  const keys = (await read(`${survivor.url}/api/v1/${id}`)).map((row) => row.key as string);
  assert.equal(new Set(keys).size, keys.length, 'no row twice');
  assert.deepEqual(
    acknowledged.filter((key) => !keys.includes(key)),
    [],
    'every acknowledged row is there',
  );
  const restarted = await start();
  assert.deepEqual(
    await read(`${restarted.url}/api/v1/${id}`),
    await read(`${survivor.url}/api/v1/${id}`),
  );
});

test('one server at a time replays a Google sheet upstream, and a dead one loses nothing it acknowledged', async (t) => {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  emulator.latencyMs = 30;
  const account = emulator.serviceAccount();
  const spreadsheetId = emulator.createSpreadsheet({
    tabs: [{ title: 'Log', rows: [['key', 'server']] }],
    sharedWith: [account.client_email],
  });
  const { servers } = await serversOnOneDatabase(t, 2, {
    SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
    SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
    SHEETPORT_GOOGLE_WRITES_PER_MINUTE: '100000',
  });
  const [survivor, victim] = servers as [RunningServer, RunningServer];
  const id = await createSheet(survivor.url, {
    source: { provider: 'google', spreadsheetId },
    freshnessSeconds: 3600,
  });
  emulator.resetStats();
  const acknowledged: string[] = [];
  let crash: Promise<void> | null = null;
  let crashedAt = Number.POSITIVE_INFINITY;
  // Ten writers, each waiting for its answer before the next write: many upstream batches.
  await Promise.all(
    Array.from({ length: 10 }, async (_, writer) => {
      const server = writer % 2 === 0 ? survivor : victim;
      for (let n = 0; n < 12; n++) {
        const key = `g${writer}-${n}`;
        try {
          const reply = await call(`${server.url}/api/v1/${id}`, {
            method: 'POST',
            body: { key, server: writer % 2 },
          });
          assert.equal(reply.status, 201, reply.text);
          acknowledged.push(key);
          if (acknowledged.length === 60 && crash === null) {
            crashedAt = Date.now();
            crash = victim.crash();
          }
        } catch (error) {
          if (server !== victim) throw error;
          return;
        }
      }
    }),
  );
  await crash;
  const writes = emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.ok(writes.length >= 4, `${writes.length} upstream writes: too few to show turn-taking`);
  // Each push holds the sheet's lock until Google has answered, so no push reaches Google
  // before the one before it was answered, by the emulator's own clock, while both servers
  // live; the killed server's last push may still be in flight.
  const beforeCrash = writes.filter((request) => request.at < crashedAt);
  for (let i = 1; i < beforeCrash.length; i++) {
    const previous = beforeCrash[i - 1]?.answeredAt;
    const next = beforeCrash[i]?.at ?? 0;
    assert.ok(
      previous !== undefined && next >= previous,
      `upstream writes ${i - 1} and ${i} overlapped`,
    );
  }
  const [, ...rows] = emulator.rows(spreadsheetId, 'Log');
  const keys = rows.map((row) => String(row[0]));
  assert.equal(new Set(keys).size, keys.length, 'no row written twice');
  assert.deepEqual(
    acknowledged.filter((key) => !keys.includes(key)),
    [],
    'every acknowledged row reached the spreadsheet',
  );
  // A push cut off by the crash may have reached Google: the survivor re-reads before its next
  // write, so it then serves exactly what the spreadsheet holds.
  const after = await call(`${survivor.url}/api/v1/${id}`, {
    method: 'POST',
    body: { key: 'after', server: 0 },
  });
  assert.equal(after.status, 201, after.text);
  const [, ...final] = emulator.rows(spreadsheetId, 'Log');
  assert.deepEqual(
    (await read(`${survivor.url}/api/v1/${id}`)).map((row) => row.key),
    final.map((row) => row[0]),
  );
});
