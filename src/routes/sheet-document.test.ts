import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell } from '../cells/cell.ts';
import { kindOf, type CellKind } from './column-kinds.ts';
import type { Sheet } from '../model/sheet.ts';
import { columnSchema, sheetDocument } from './sheet-document.ts';

test('each cell has the kind the row API shows it as; an empty cell has none', () => {
  const cases: [Parameters<typeof kindOf>[0], CellKind | null][] = [
    [null, null],
    [0, 'number'],
    [-1.5, 'number'],
    ['', 'text'],
    ['2026-02-01', 'text'],
    [false, 'boolean'],
    [new DateCell('2026-02-01'), 'date'],
    [new DateCell('09:30:00'), 'time'],
    [new DateCell('2026-02-01T14:05:00'), 'date-time'],
  ];
  for (const [cell, kind] of cases) assert.equal(kindOf(cell), kind, String(cell));
});

test('a column schema is the union of the kinds its cells hold, and null', () => {
  const time = { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$', description: 'HH:MM:SS' };
  const cases: [CellKind[], object][] = [
    [[], { type: ['number', 'string', 'boolean', 'null'] }],
    [['number'], { type: ['number', 'null'] }],
    [['number', 'text', 'boolean'], { type: ['number', 'string', 'boolean', 'null'] }],
    [['date'], { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] }],
    [['number', 'time'], { anyOf: [{ type: 'number' }, time, { type: 'null' }] }],
    // Dates and times are text too: text takes them in.
    [['text', 'date', 'date-time'], { type: ['string', 'null'] }],
  ];
  for (const [kinds, schema] of cases) assert.deepEqual(columnSchema(kinds), schema, kinds.join());
});

test("a sheet's read offers paging and filters but not _fields, whose rows are not the Row it types; writes take an Idempotency-Key", () => {
  const sheet = {
    id: 'abc',
    name: 'people',
    version: 3,
    columns: ['name', 'age'],
    settings: { deleteEnabled: true },
  } as Sheet;
  type Operation = { parameters: { name: string; in: string }[] };
  const document = sheetDocument(sheet, [['text'], ['number']]) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const operations = document.paths['/api/v1/abc'] ?? {};
  const names = (method: string) => (operations[method]?.parameters ?? []).map((p) => p.name);
  assert.ok(names('get').includes('name') && names('get').includes('_limit'));
  assert.ok(!names('get').includes('_fields'));
  for (const method of ['post', 'put', 'patch', 'delete']) {
    assert.ok(names(method).includes('Idempotency-Key'), method);
  }
  assert.ok(!names('get').includes('Idempotency-Key'));
});
