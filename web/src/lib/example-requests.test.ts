import { test } from 'node:test';
import assert from 'node:assert/strict';
import { curlExample, exampleRow, fetchExample, shellQuote } from './example-requests.ts';

const url = 'http://127.0.0.1:8080/api/v1/abc?city=Lisbon&age=__gt(40)';

test('a shell word keeps every character, quotes included', () => {
  assert.equal(shellQuote(`Ann's`), `'Ann'\\''s'`);
  assert.equal(shellQuote('$HOME `x`'), `'$HOME \`x\`'`);
});

test('curl: a read of an open sheet is one quoted URL', () => {
  assert.equal(curlExample({ method: 'GET', url, needsKey: false }), `curl -s '${url}'`);
});

test('curl: a write sends JSON, with the key taken from the environment', () => {
  const body = { name: "O'Neil", age: 52 };
  assert.equal(
    curlExample({ method: 'POST', url: 'http://h/api/v1/abc', body, needsKey: true }),
    [
      `curl -s -X POST 'http://h/api/v1/abc' \\`,
      `  -H "Authorization: Bearer $SHEETPORT_KEY" \\`,
      `  -H 'content-type: application/json' \\`,
      `  -d '{"name":"O'\\''Neil","age":52}'`,
    ].join('\n'),
  );
});

test('fetch: a read of an open sheet needs no options', () => {
  assert.equal(
    fetchExample({ method: 'GET', url, needsKey: false }),
    `const response = await fetch(${JSON.stringify(url)});\nconst rows = await response.json();`,
  );
});

test('fetch: a write names its method, headers and body', () => {
  const text = fetchExample({
    method: 'POST',
    url: 'http://h/api/v1/abc',
    body: { name: 'Ivo' },
    needsKey: true,
  });
  assert.equal(
    text,
    [
      `const response = await fetch("http://h/api/v1/abc", {`,
      `  method: 'POST',`,
      `  headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },`,
      `  body: JSON.stringify({"name":"Ivo"}),`,
      `});`,
      `const result = await response.json();`,
    ].join('\n'),
  );
});

test('the row an example adds is a row of the sheet: numbers as numbers, placeholders where empty', () => {
  const columns = ['name', 'age', 'member', 'note'];
  assert.deepEqual(exampleRow(columns, { name: 'Ann', age: 31, member: true, note: null }), {
    name: 'Ann',
    age: 31,
    member: true,
    note: '<note>',
  });
  assert.deepEqual(exampleRow(['name'], undefined), { name: '<name>' });
});
