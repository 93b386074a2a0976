import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';
import { rawRequest, sendRaw, type RawAnswer } from './helpers/raw-http.ts';

const json = 'Content-Type: application/json\r\n';

interface Served {
  url: string;
  id: string;
  /** The rows, the sheet's version and the sheet list, read past the cache (it is off). */
  state: () => Promise<unknown>;
}

async function served(t: TestContext): Promise<Served> {
  const { url } = await build(t, { bodyLimit: 2048, cacheSize: 0 });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name'], rows: [{ name: 'Ann' }, { name: 'Bob' }] },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  const state = async () => {
    const rows = await call(`${url}/api/v1/${id}`);
    const sheets = await call(`${url}/admin/v1/sheets`);
    return { rows: rows.body, version: rows.headers.get('etag'), sheets: sheets.body };
  };
  return { url, id, state };
}

function assertProblem(answer: RawAnswer, status: number, code: string, what: string): void {
  assert.equal(answer.status, status, `${what}: ${answer.body}`);
  assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/, what);
  const document = JSON.parse(answer.body) as { code: string; status: number; type: string };
  assert.equal(document.code, code, what);
  assert.equal(document.status, status, what);
  assert.equal(document.type, `urn:sheetport:problem:${code}`, what);
}

test('requests the router or Node refuse answer problem documents, and change nothing', async (t) => {
  const { url, id, state } = await served(t);
  const before = await state();
  const row = JSON.stringify({ name: 'Eve' });
  const cases: [string, string, number, string][] = [
    ['a bad percent escape', rawRequest('GET /api/v1/%zz'), 400, 'invalid-url'],
    ['overlong UTF-8', rawRequest('DELETE /api/v1/%C0%AF?_id=0'), 400, 'invalid-url'],
    [
      'a lone surrogate',
      rawRequest(`PATCH /api/v1/%ED%A0%80?_id=0`, json, row),
      400,
      'invalid-url',
    ],
    ['an encoded NUL', rawRequest('DELETE /api/v1/a%00b?_id=0'), 400, 'invalid-url'],
    ['a target that is not a path', rawRequest('GET *'), 400, 'invalid-url'],
    [
      'a 101-character id',
      rawRequest(`DELETE /api/v1/${'a'.repeat(101)}?_id=0`),
      414,
      'uri-too-long',
    ],
    ['an unknown path', rawRequest(`POST /api/v1/${id}/rows`, json, row), 404, 'route-not-found'],
    [
      'an invalid header name',
      rawRequest(`POST /api/v1/${id}`, `${json}X-A b: c\r\n`, row),
      400,
      'malformed-request',
    ],
    [
      'no Host header',
      `POST /api/v1/${id} HTTP/1.1\r\nConnection: close\r\n${json}Content-Length: ${row.length}\r\n\r\n${row}`,
      400,
      'malformed-request',
    ],
    [
      'a Content-Length that is not a number',
      rawRequest(`POST /api/v1/${id}`, `${json}Content-Length: abc\r\n`),
      400,
      'malformed-request',
    ],
    [
      'Content-Length beside Transfer-Encoding',
      rawRequest(
        `POST /api/v1/${id}`,
        `${json}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n`,
        `${row.length.toString(16)}\r\n${row}\r\n0\r\n\r\n`,
      ),
      400,
      'malformed-request',
    ],
    [
      'headers over 16 KiB',
      rawRequest(`POST /api/v1/${id}`, `${json}X-Big: ${'b'.repeat(20_000)}\r\n`, row),
      431,
      'headers-too-large',
    ],
  ];
  for (const [what, request, status, code] of cases) {
    assertProblem(await sendRaw(url, request), status, code, what);
  }
  assert.deepEqual(await state(), before);
});

test('bodies the framework cannot read answer problem documents, and change nothing', async (t) => {
  const { url, id, state } = await served(t);
  const before = await state();
  const rows = `POST /api/v1/${id}`;
  const cases: [string, string, number, string][] = [
    ['malformed JSON', rawRequest(rows, json, '{"name":'), 400, 'malformed-json'],
    ['an empty JSON body', rawRequest(rows, `${json}Content-Length: 0\r\n`), 400, 'malformed-json'],
    ['a __proto__ key', rawRequest(rows, json, '{"__proto__":{"x":1}}'), 400, 'malformed-json'],
    [
      'a body over the limit',
      rawRequest(rows, json, JSON.stringify({ name: 'x'.repeat(4096) })),
      413,
      'body-too-large',
    ],
    [
      'XML',
      rawRequest(rows, 'Content-Type: text/xml\r\n', '<name>Eve</name>'),
      415,
      'unsupported-media-type',
    ],
    [
      'plain text',
      rawRequest(rows, 'Content-Type: text/plain\r\n', 'name=Eve'),
      415,
      'unsupported-media-type',
    ],
    ['no Content-Type', rawRequest(rows, '', '{"name":"Eve"}'), 415, 'unsupported-media-type'],
    [
      'a Content-Type that does not parse',
      rawRequest(rows, 'Content-Type: ;;;\r\n', '{}'),
      415,
      'unsupported-media-type',
    ],
    [
      'a form as a new sheet',
      rawRequest(
        'POST /admin/v1/sheets',
        'Content-Type: application/x-www-form-urlencoded\r\n',
        'name=x',
      ),
      415,
      'unsupported-media-type',
    ],
    // Operations that take no body still read one that is sent, and refuse it as the others do.
    [
      'XML sent to a refresh',
      rawRequest(`POST /admin/v1/sheets/${id}/refresh`, 'Content-Type: text/xml\r\n', '<x/>'),
      415,
      'unsupported-media-type',
    ],
    [
      'a body over the limit sent to a sheet removal',
      rawRequest(`DELETE /admin/v1/sheets/${id}`, json, JSON.stringify({ x: 'x'.repeat(4096) })),
      413,
      'body-too-large',
    ],
    [
      'XML sent to a key removal',
      rawRequest(`DELETE /admin/v1/sheets/${id}/keys/k1`, 'Content-Type: text/xml\r\n', '<x/>'),
      415,
      'unsupported-media-type',
    ],
    [
      'XML sent to a webhook removal',
      rawRequest(`DELETE /admin/v1/sheets/${id}/webhooks/w1`, 'Content-Type: text/xml\r\n', '<x/>'),
      415,
      'unsupported-media-type',
    ],
  ];
  for (const [what, request, status, code] of cases) {
    assertProblem(await sendRaw(url, request), status, code, what);
  }
  assert.deepEqual(await state(), before);
});

test('a method a path does not answer is 405 with an Allow header listing those it does', async (t) => {
  const { url, id, state } = await served(t);
  const before = await state();
  const cases: [string, string, string][] = [
    [`DELETE /admin/v1/sheets`, 'GET, HEAD, POST', 'a sheet list'],
    [`PUT /admin/v1/sheets/${id}`, 'GET, HEAD, PATCH, DELETE', 'a sheet'],
    [`TRACE /api/v1/${id}`, 'GET, HEAD, POST, PUT, PATCH, DELETE', 'rows'],
    [
      `PURGE /api/v1/${id}?_id=0`,
      'GET, HEAD, POST, PUT, PATCH, DELETE',
      'a method unknown to the router',
    ],
    [`DELETE /api/v1/${id}/query?_id=0`, 'GET, HEAD', 'the read-only /query'],
  ];
  for (const [line, allow, what] of cases) {
    const answer = await sendRaw(url, rawRequest(line));
    assertProblem(answer, 405, 'method-not-allowed', what);
    assert.equal(answer.headers.allow, allow, what);
  }
  const unknown = await sendRaw(url, rawRequest('DELETE /admin/v1/nothing'));
  assertProblem(unknown, 404, 'route-not-found', 'a path nothing answers');
  assert.equal(unknown.headers.allow, undefined);
  assert.deepEqual(await state(), before);
});
