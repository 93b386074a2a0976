import { test } from 'node:test';
import assert from 'node:assert/strict';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyReply } from 'fastify';
import { AnswerGuard } from './helpers/answer-guard.ts';

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
