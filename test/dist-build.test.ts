import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The environment without the caller's SHEETPORT_ settings, with these instead. */
function env(settings: Record<string, string>): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_'));
  return { ...Object.fromEntries(kept), SHEETPORT_DEMO: 'false', ...settings };
}

/**
 * Every other test runs the sources under tsx; this one builds the server as `npm run build`
 * does, into a package of its own (package.json, node_modules, dist/), and runs the bundle as
 * `npm start` would: it finds the package's files from where the bundler put it, and loads the
 * modules kept for first use from their chunks.
 */
test('the bundled server in dist imports a file, reads, writes and refuses rows, serves CSV, /openapi.json and /docs, and takes an upload', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-dist-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await copyFile(join(root, 'package.json'), join(dir, 'package.json'));
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
  await build({
    configFile: join(root, 'vite.server.config.ts'),
    root,
    logLevel: 'warn',
    build: { outDir: join(dir, 'dist') },
  });
  const cli = join(dir, 'dist', 'cli.js');
  assert.ok((await readdir(join(dir, 'dist', 'chunks'))).some((f) => f.startsWith('import-file')));
  const data = join(dir, 'data');
  const csv = join(dir, 'people.csv');
  await writeFile(csv, 'name,age\nAda,36\nGrace,45\n');

  const imported = spawn(process.execPath, [cli, 'import', csv], {
    env: env({ SHEETPORT_DATA_DIR: data }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  imported.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
  const [code] = (await once(imported, 'exit')) as [number | null];
  assert.equal(code, 0);
  const sheet = JSON.parse(printed) as { id: string };

  const server = spawn(process.execPath, [cli, 'serve'], {
    env: env({ SHEETPORT_DATA_DIR: data, SHEETPORT_PORT: '0', SHEETPORT_LOG_FORMAT: 'json' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
  });
  let url: string | undefined;
  for await (const line of createInterface({ input: server.stdout })) {
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    if (url !== undefined) break;
  }
  assert.ok(url, 'the server says where it listens');

  const rows = await fetch(`${url}/api/v1/${sheet.id}`);
  assert.equal(rows.status, 200);
  assert.deepEqual(await rows.json(), [
    { name: 'Ada', age: 36 },
    { name: 'Grace', age: 45 },
  ]);
  const added = await fetch(`${url}/api/v1/${sheet.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Linus', age: 54 }),
  });
  assert.equal(added.status, 201);
  const older = await fetch(`${url}/api/v1/${sheet.id}?age=__gt(40)`);
  assert.deepEqual(await older.json(), [
    { name: 'Grace', age: 45 },
    { name: 'Linus', age: 54 },
  ]);
  const refused = await fetch(`${url}/api/v1/${sheet.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '42',
  });
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { code: string }).code, 'invalid-body');
  const asCsv = await fetch(`${url}/api/v1/${sheet.id}`, { headers: { accept: 'text/csv' } });
  assert.equal(await asCsv.text(), 'name,age\nAda,36\nGrace,45\nLinus,54\n');
  const document = await fetch(`${url}/openapi.json`);
  assert.equal(document.status, 200);
  const { paths } = (await document.json()) as { paths: Record<string, unknown> };
  assert.ok('/api/v1/{sheetId}' in paths, Object.keys(paths).join(' '));
  const docs = await fetch(`${url}/docs`);
  assert.equal(docs.status, 200);
  assert.match(await docs.text(), /swagger-ui/);

  const upload = new FormData();
  upload.append('file', new Blob(['city\nOslo\n'], { type: 'text/csv' }), 'cities.csv');
  const created = await fetch(`${url}/admin/v1/sheets`, { method: 'POST', body: upload });
  assert.equal(created.status, 201);
  assert.equal(((await created.json()) as { rowCount: number }).rowCount, 1);

  server.kill('SIGTERM');
  const [exitCode] = (await once(server, 'exit')) as [number | null];
  assert.equal(exitCode, 0);

  // The start left V8's code cache beside the bundle; the next start runs from it, and still
  // loads what it loads on first use (a script from the cache once lost dynamic import()).
  const caches = (await readdir(join(dir, 'dist'))).filter((f) => f.endsWith('.cache'));
  assert.equal(caches.length, 1, caches.join(' '));
  const again = spawn(process.execPath, [cli, 'serve'], {
    env: env({ SHEETPORT_DATA_DIR: data, SHEETPORT_PORT: '0', SHEETPORT_LOG_FORMAT: 'json' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => {
    if (again.exitCode === null) again.kill('SIGKILL');
  });
  url = undefined;
  for await (const line of createInterface({ input: again.stdout })) {
    url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    if (url !== undefined) break;
  }
  assert.ok(url, 'the second start says where it listens');
  assert.equal((await fetch(`${url}/docs`)).status, 200);
  const workbook = await fetch(`${url}/api/v1/${sheet.id}`, {
    headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  });
  assert.equal(workbook.status, 200);
  assert.equal((await workbook.arrayBuffer()).byteLength > 0, true);
  again.kill('SIGTERM');
  assert.deepEqual(await once(again, 'exit'), [0, null]);
});
