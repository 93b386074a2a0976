/**
 * `/docs` (Swagger UI) is served, page and assets alike, under a policy that allows only this
 * server and refuses to be framed, as the console is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from './helpers/build.ts';

test('/docs, its page and its assets, refuse framing and carry a policy of this server alone', async (t) => {
  const { url } = await build(t);
  const page = await fetch(`${url}/docs/`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  assert.ok(
    assets.some((asset) => asset.endsWith('swagger-ui-bundle.js')),
    html,
  );
  const answers = [page];
  for (const asset of [...assets, './static/swagger-initializer.js']) {
    const answer = await fetch(new URL(asset, `${url}/docs/`));
    assert.equal(answer.status, 200, asset);
    await answer.arrayBuffer();
    answers.push(answer);
  }
  answers.push(await fetch(`${url}/docs`, { redirect: 'manual' }));
  for (const answer of answers) {
    const policy = answer.headers.get('content-security-policy') ?? '';
    assert.match(policy, /frame-ancestors 'none'/, answer.url);
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /script-src 'self';/, 'no inline or foreign script');
    assert.doesNotMatch(policy, /upgrade-insecure-requests|https:|unsafe-eval/);
    assert.match(policy, /style-src 'self' 'unsafe-inline';/, 'inline styles only');
    assert.equal(answer.headers.get('x-frame-options'), 'DENY', answer.url);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('a path under /docs that Swagger UI does not serve answers 404 route-not-found as a problem document', async (t) => {
  const { url } = await build(t);
  for (const path of ['/docs/nothing-here', '/docs/static/nothing-here.js']) {
    const answer = await fetch(`${url}${path}`);
    assert.equal(answer.status, 404, path);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
    assert.equal(((await answer.json()) as { code: string }).code, 'route-not-found', path);
  }
});

test('a Swagger UI asset asked again with its ETag answers 304 without a body, as a file server does', async (t) => {
  const { url } = await build(t);
  const asset = `${url}/docs/static/swagger-ui.css`;
  const first = await fetch(asset);
  assert.equal(first.status, 200);
  assert.ok((await first.arrayBuffer()).byteLength > 1000);
  const etag = first.headers.get('etag');
  assert.ok(etag, 'the asset carries an ETag');
  const again = await fetch(asset, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal((await again.arrayBuffer()).byteLength, 0);
  assert.equal(again.headers.get('x-frame-options'), 'DENY');
});
