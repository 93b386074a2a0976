import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import {
  bodyOf,
  fewPieces,
  joined,
  payloadOf,
  withRowsAppended,
  type AnswerBody,
} from './answer-body.ts';

const text = (body: AnswerBody) => Buffer.concat(body.pieces).toString();
const big = (char: string) => Buffer.alloc(70 * 1024, char);

test('a small body is joined into one buffer; a large one keeps its pieces, empty ones left out', () => {
  const small = bodyOf([
    Buffer.from('['),
    Buffer.from('{"a":1}'),
    Buffer.alloc(0),
    Buffer.from(']'),
  ]);
  assert.equal(small.pieces.length, 1);
  assert.equal(text(small), '[{"a":1}]');
  assert.equal(small.bytes, 9);
  const rows = big('x');
  const large = bodyOf([Buffer.from('['), rows, Buffer.alloc(0), Buffer.from(']')]);
  assert.equal(large.pieces.length, 3);
  assert.equal(large.pieces[1], rows, 'the rows read are not copied');
  assert.equal(large.bytes, rows.length + 2);
  const kept = joined(large);
  assert.equal(kept.pieces.length, 1);
  assert.equal(text(kept), text(large));
  assert.equal(kept.bytes, large.bytes);
});

test('a body is kept in few pieces: as it is, unless it has more than 64, never copying a large one', () => {
  const rows = big('x');
  const large = bodyOf([Buffer.from('['), rows, Buffer.from(']')]);
  assert.equal(fewPieces(large), large, 'a body of few pieces is kept as it was read');
  // A sheet's blocks, commas between them, then rows one by one.
  const blocks = Array.from({ length: 80 }, (_, i) => Buffer.alloc(16 * 1024, 97 + (i % 26)));
  const many = bodyOf([
    Buffer.from('['),
    ...blocks.flatMap((block) => [block, Buffer.from(',')]),
    ...Array.from({ length: 100 }, (_, i) => Buffer.from(`${i},`)),
    Buffer.from(']'),
  ]);
  const kept = fewPieces(many);
  assert.ok(kept.pieces.length < many.pieces.length, `${kept.pieces.length} pieces`);
  for (const block of blocks) assert.ok(kept.pieces.includes(block), 'no block is copied');
  assert.equal(text(kept), text(many));
  assert.equal(kept.bytes, many.bytes);
});

test('rows appended go before the closing bracket, with a comma after any row before them', () => {
  assert.equal(
    text(withRowsAppended(bodyOf([Buffer.from('[]')]), Buffer.from('{"a":1}'))),
    '[{"a":1}]',
  );
  const one = withRowsAppended(bodyOf([Buffer.from('[{"a":1}]')]), Buffer.from('{"a":2},{"a":3}'));
  assert.equal(text(one), '[{"a":1},{"a":2},{"a":3}]');
  assert.equal(one.bytes, Buffer.byteLength(text(one)));
  const rows = big('x');
  const large = withRowsAppended(
    bodyOf([Buffer.from('['), rows, Buffer.from(']')]),
    Buffer.from('1'),
  );
  assert.equal(text(large), `[${rows.toString()},1]`);
  assert.ok(large.pieces.includes(rows), 'what the body held is not copied');
});

test('many appends are gathered around the largest piece, which is never copied', () => {
  const rows = big('x');
  let body = bodyOf([Buffer.from('['), rows, Buffer.from(']')]);
  const expected = [rows.toString()];
  for (let n = 0; n < 200; n++) {
    body = withRowsAppended(body, Buffer.from(String(n)));
    expected.push(String(n));
    assert.ok(body.pieces.length <= 64, `${body.pieces.length} pieces`);
  }
  assert.equal(text(body), `[${expected.join(',')}]`);
  assert.equal(body.bytes, Buffer.byteLength(text(body)));
  assert.ok(body.pieces.includes(rows));
});

test('pieces are sent as one body with its length, to GET and HEAD alike; one buffer as it is', async (t) => {
  const app = Fastify();
  t.after(() => app.close());
  const rows = big('y');
  const pieces = bodyOf([Buffer.from('['), rows, Buffer.from(']')]);
  const sent: unknown[] = [];
  app.get('/pieces', async (_request, reply) => {
    const payload = payloadOf(reply, pieces);
    sent.push(payload);
    return reply.type('application/json').send(payload);
  });
  app.get('/one', async (_request, reply) => {
    const payload = payloadOf(reply, bodyOf([Buffer.from('[1]')]));
    sent.push(payload);
    return reply.type('application/json').send(payload);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const got = await fetch(`${url}/pieces`);
  assert.equal(got.headers.get('content-length'), String(rows.length + 2));
  assert.equal(got.headers.get('transfer-encoding'), null);
  assert.equal(await got.text(), `[${rows.toString()}]`);
  assert.ok(sent[0] instanceof Readable);
  const head = await fetch(`${url}/pieces`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(rows.length + 2));
  assert.equal(await head.text(), '');
  // The connection is kept and answers again after a body sent in pieces.
  const again = await fetch(`${url}/pieces`);
  assert.equal((await again.text()).length, rows.length + 2);
  const one = await fetch(`${url}/one`);
  assert.equal(await one.text(), '[1]');
  assert.ok(Buffer.isBuffer(sent.at(-1)));
});
