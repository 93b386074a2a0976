import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turnEnd } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answersTogether } from './send-together.ts';

test("a turn's first answer leaves at once, the others together as the turn ends, in order", async () => {
  const hook = answersTogether();
  const sent: string[] = [];
  const send = (payload: string) =>
    hook.call(undefined as never, {} as FastifyRequest, {} as FastifyReply, payload, ((
      error: Error | null,
      out: unknown,
    ) => {
      assert.equal(error, null);
      sent.push(String(out));
    }) as never);
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
