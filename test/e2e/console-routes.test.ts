import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { consoleDir, consoleRoutes } from '../../src/routes/console-routes.ts';
import { build, call } from '../helpers/build.ts';

test('the console page is served at / under a strict Content-Security-Policy, never cached stale', async (t) => {
  const { url } = await build(t);
  const page = await fetch(`${url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
  assert.match(await page.text(), /<script type="module" crossorigin src="\/assets\//);
});

test('the console assets are served under /assets/, cached for good', async (t) => {
  const { url } = await build(t);
  const [script] = (await readdir(join(consoleDir, 'assets'))).filter((f) => f.endsWith('.js'));
  assert.ok(script !== undefined, 'the console is built');
  const answer = await fetch(`${url}/assets/${script}`);
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /javascript/);
  assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(await answer.text(), /\S/);
});

test('the console shadows no API path, and unknown paths still answer problem documents', async (t) => {
  const { url } = await build(t);
  assert.equal((await call(`${url}/admin/v1/sheets`)).status, 200);
  assert.equal((await call(`${url}/openapi.json`)).status, 200);
  assert.equal((await call(`${url}/docs/`)).status, 200);
  for (const path of ['/nothing-here', '/assets/nothing.js', '/api/v1/no-such-sheet']) {
    const answer = await call(`${url}${path}`);
    assert.equal(answer.status, 404, path);
    assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/, path);
  }
  const { paths } = (await call(`${url}/openapi.json`)).body as { paths: object };
  assert.deepEqual(
    Object.keys(paths).filter((path) => !path.startsWith('/api/') && !path.startsWith('/admin/')),
    [],
    'the console is not part of the API document',
  );
});

test('without a built console, / says how to build it', async (t) => {
  const empty = await mkdtemp(join(tmpdir(), 'sheetport-no-console-'));
  const app = Fastify();
  t.after(async () => {
    await app.close();
    await rm(empty, { recursive: true, force: true });
  });
  await app.register(consoleRoutes, { root: empty });
  const answer = await app.inject({ url: '/' });
  assert.equal(answer.statusCode, 503);
  assert.match(answer.body, /npm run build/);
});
