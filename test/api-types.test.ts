import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { apiTypes, apiTypesFile } from '../scripts/api-types.ts';

test("the console's API types are those the server's OpenAPI document makes now", async () => {
  const committed = await readFile(apiTypesFile, 'utf8');
  assert.equal(
    committed,
    await apiTypes(),
    'web/src/api/openapi.ts differs from the OpenAPI document: run `npm run api-types`',
  );
});
