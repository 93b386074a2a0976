import { test } from 'node:test';
import assert from 'node:assert/strict';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyReply } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnswerGuard } from './helpers/answer-guard.ts';
import { startServer } from './helpers/server-process.ts';

/** The guard every HTTP test runs under, on an app whose answers stray from its document. */
test('the answer guard reports an undocumented status, a body off its schema and an undocumented type', async (t) => {
  const app = Fastify();
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } },
  });
  const thing = {
    type: 'object',
    properties: { n: { type: 'integer' } },
    required: ['n'],
  } as const;
  app.get('/things/:id', { schema: { response: { 200: thing } } }, async (request, typedReply) => {
    const reply = typedReply as FastifyReply;
    const { id } = request.params as { id: string };
    if (id === 'teapot') return reply.code(418).send({ n: 1 });
    if (id === 'text') return reply.type('text/plain').send('one');
    // A string payload skips the serializer, as a streamed or cached answer does.
    if (id === 'wrong') return reply.type('application/json').send('{"n":"one"}');
    return { n: 1 };
  });
  app.get('/hidden', { schema: { hide: true } }, async (_request, reply) => reply.code(418).send());
  const guard = new AnswerGuard(app);
  guard.watch(app.server);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => app.close());

  for (const path of ['/things/1', '/hidden', '/nowhere']) await (await fetch(url + path)).text();
  assert.deepEqual(guard.mismatches, [], 'documented answers and undocumented paths pass');
  guard.check();

  for (const id of ['teapot', 'wrong', 'text']) await (await fetch(`${url}/things/${id}`)).text();
  assert.equal(guard.mismatches.length, 3);
  assert.match(
    guard.mismatches[0] ?? '',
    /GET \/things\/\{id\} .* answered 418, which it does not document/,
  );
  assert.match(
    guard.mismatches[1] ?? '',
    /answered 200 with a body that does not match its schema: .*n must be integer/,
  );
  assert.match(
    guard.mismatches[2] ?? '',
    /answered 200 as "text\/plain", which it does not document/,
  );
  assert.throws(() => guard.check(), /answers the OpenAPI document does not describe/);
});

/** A `sheetport serve` of its own: its answers are checked in that process, its mismatches
 * reported to the test that started it when the test stops it. */
test('an answer of a server process that its document does not describe fails the test that started it', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-guard-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const guarded = async (settings: Record<string, string>) => {
    let stop: () => Promise<void> = async () => undefined;
    t.after(() => stop());
    const server = await startServer({ SHEETPORT_DATA_DIR: dataDir, ...settings }, (kill) => {
      stop = kill;
    });
    assert.equal((await fetch(`${server.url}/admin/v1/sheets`)).status, 200);
    const result = stop();
    stop = async () => undefined;
    return result;
  };

  await guarded({});
  await assert.rejects(
    guarded({ ANSWER_GUARD_UNDOCUMENT: 'GET /admin/v1/sheets 200' }),
    /answers the OpenAPI document does not describe:\n {2}- GET \/admin\/v1\/sheets \(\w+\) answered 200, which it does not document/,
  );
});
