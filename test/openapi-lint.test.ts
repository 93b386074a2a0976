import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helpers/build.ts';
import { lintDocument } from './helpers/redocly.ts';

test("the served document passes Redocly's recommended rules: no error, no warning", async (t) => {
  const { url } = await build(t);
  const result = await lintDocument(await (await fetch(`${url}/openapi.json`)).text());
  assert.deepEqual(result.problems, []);
  assert.equal(result.errors, 0);
  assert.equal(result.warnings, 0);
});
