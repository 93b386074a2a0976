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
