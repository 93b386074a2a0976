import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';

/**
 * What a request that breaks its schema is told, word for word: one sentence that names the
 * property by its JSON pointer and, for a closed set, lists the values it takes; never the
 * validator's own list of every branch it tried.
 */
test('validation errors name the property by its JSON pointer and list the values allowed, in one sentence', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name'] },
  });
  const { id } = created.body as { id: string };
  const sheet = `${url}/admin/v1/sheets/${id}`;
  const table: [string, string, string, unknown, string, string][] = [
    [
      'a scope outside the closed set',
      'POST',
      `${sheet}/keys`,
      { scopes: ['read', 'create', 'write'] },
      'invalid-body',
      'The body is invalid: /scopes/2 must be one of "read", "create", "update" or "delete".',
    ],
    [
      'a property the body does not take',
      'PATCH',
      sheet,
      { delete: false },
      'invalid-body',
      'The body is invalid: /delete is not a property this takes; it takes "name", "deleteEnabled", "freshnessSeconds", "watch", "watchIntervalSeconds", "access", "allowedOrigins" or "textColumns".',
    ],
    [
      'a body that is no object',
      'PATCH',
      sheet,
      42,
      'invalid-body',
      'The body must be a JSON object.',
    ],
    [
      'a value of the wrong type',
      'PATCH',
      sheet,
      { deleteEnabled: 'yes' },
      'invalid-body',
      'The body is invalid: /deleteEnabled must be true or false.',
    ],
    [
      'an access mode outside the closed set',
      'PATCH',
      sheet,
      { access: 'secret' },
      'invalid-body',
      'The body is invalid: /access must be one of "open", "public-read" or "private".',
    ],
    [
      'a required property left out',
      'POST',
      `${sheet}/keys`,
      {},
      'invalid-body',
      'The body is invalid: /scopes is missing; it is required.',
    ],
    [
      'a number out of range',
      'PATCH',
      sheet,
      { name: 'x', deleteEnabled: true, access: 'open', allowedOrigins: [7] },
      'invalid-body',
      'The body is invalid: /allowedOrigins/0 must be text.',
    ],
  ];
  for (const [name, method, target, body, code, detail] of table) {
    const answer = await call(target, { method, body: JSON.stringify(body) });
    const problem = answer.body as { code: string; detail: string };
    assert.equal(answer.status, 400, `${name}: ${answer.text}`);
    assert.deepEqual({ code: problem.code, detail: problem.detail }, { code, detail }, name);
    assert.doesNotMatch(problem.detail, /anyOf|must match a schema| {2}/, name);
  }
});

test('query string validation names the parameter the same way', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name'] },
  });
  const { id } = created.body as { id: string };
  const answer = await call(`${url}/api/v1/${id}?_upsert=name&_upsert=city`, {
    method: 'POST',
    body: { name: 'Ann' },
  });
  const problem = answer.body as { code: string; detail: string };
  assert.equal(answer.status, 400, answer.text);
  assert.deepEqual(
    { code: problem.code, detail: problem.detail },
    { code: 'invalid-parameter', detail: 'The query string is invalid: /_upsert must be text.' },
  );
});
