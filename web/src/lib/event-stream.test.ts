import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventStreamParser, type StreamEvent } from './event-stream.ts';

const updated = 'id: evt_1\nevent: rows.updated\ndata: {"n":1}\n\n';

const cases: { name: string; pieces: string[]; events: StreamEvent[] }[] = [
  {
    name: 'one whole event',
    pieces: [updated],
    events: [{ id: 'evt_1', type: 'rows.updated', data: '{"n":1}' }],
  },
  {
    name: 'an event cut in the middle of a line and of its blank line',
    pieces: ['id: evt_1\nevent: rows.up', 'dated\ndata: {"n"', ':1}\n', '\n'],
    events: [{ id: 'evt_1', type: 'rows.updated', data: '{"n":1}' }],
  },
  { name: 'comments and heartbeats only', pieces: [': connected\n\n: heartbeat\n\n'], events: [] },
  {
    name: 'CRLF line ends, cut between CR and LF',
    pieces: ['id: evt_2\r', '\nevent: rows.created\r\ndata: x\r\n\r\n'],
    events: [{ id: 'evt_2', type: 'rows.created', data: 'x' }],
  },
  {
    name: 'two data lines, no type, and the id kept for the next event',
    pieces: ['id: evt_3\ndata: a\ndata: b\n\ndata: c\n\n'],
    events: [
      { id: 'evt_3', type: 'message', data: 'a\nb' },
      { id: 'evt_3', type: 'message', data: 'c' },
    ],
  },
  { name: 'an event not yet ended', pieces: ['id: evt_4\ndata: x\n'], events: [] },
];

for (const { name, pieces, events } of cases) {
  test(`event stream: ${name}`, () => {
    const parser = new EventStreamParser();
    assert.deepEqual(
      pieces.flatMap((piece) => parser.push(piece)),
      events,
    );
  });
}
