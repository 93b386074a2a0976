import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turnEnd } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answersTogether } from './send-together.ts';

/** Hands answers to a fresh hook as Fastify would; `sent` lists them as they leave. */
function sender() {
  const hook = answersTogether();
  const sent: string[] = [];
  const done = (error: Error | null, payload: unknown) => {
    assert.equal(error, null);
    sent.push(String(payload));
  };
  const send = (payload: string, method = 'GET') =>
    hook.call(
      undefined as never,
      { method } as FastifyRequest,
      {} as FastifyReply,
      payload,
      done as never,
    );
  return { send, sent };
}

test("a turn's first answer leaves at once, the others together as the turn ends, in order", async () => {
  const { send, sent } = sender();
  send('a');
  send('b');
  await Promise.resolve();
  send('c');
  assert.deepEqual(sent, ['a'], 'only the first answer of the turn has left');
  await turnEnd();
  assert.deepEqual(sent, ['a', 'b', 'c']);
  send('d');
  assert.deepEqual(sent, ['a', 'b', 'c', 'd'], "the next turn's first answer leaves at once");
  send('e');
  await turnEnd();
  assert.deepEqual(sent, ['a', 'b', 'c', 'd', 'e']);
});

test("a write's answer leaves at once, and does not count as the turn's first", async () => {
  const { send, sent } = sender();
  send('post', 'POST');
  send('read 1');
  send('patch', 'PATCH');
  send('read 2', 'HEAD');
  assert.deepEqual(sent, ['post', 'read 1', 'patch']);
  await turnEnd();
  assert.deepEqual(sent, ['post', 'read 1', 'patch', 'read 2']);
});

test('a large answer, or a stream, leaves at once', async () => {
  const { send, sent } = sender();
  send('small');
  send('x'.repeat(64 * 1024 + 1));
  send('held');
  assert.deepEqual(
    sent.map((payload) => payload.slice(0, 5)),
    ['small', 'xxxxx'],
  );
  await turnEnd();
  assert.deepEqual(sent.at(-1), 'held');
});
