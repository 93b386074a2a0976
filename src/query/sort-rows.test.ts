import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell, type Cell } from '../cells/cell.ts';
import { compareForSort, sortPositions, type SortOrder } from './sort-rows.ts';

const date = (iso: string) => new DateCell(iso);

test('compareForSort puts numbers first by value, then other cells by shown text', () => {
  const table: [Cell, Cell, -1 | 0 | 1][] = [
    [1, 2, -1],
    [2, 1, 1],
    [1, 1, 0],
    [-2.5, 0, -1],
    [0.1, 0.2, -1],
    [9, 10, -1],
    [2 ** 53, 1e21, -1],
    [1e21, 12345678901234567000, 1],
    [31, '31', -1],
    ['31', 31, 1],
    [1e21, 'a', -1],
    [31, true, -1],
    [false, 0, 1],
    [31, date('2021-03-01'), -1],
    ['10', '9', -1],
    ['B', 'a', -1],
    ['a', 'a', 0],
    ['Zoë', 'Zoe', 1],
    ['\uFFFF', '😀', -1],
    ['😀', '\uFFFF', 1],
    [true, 'true', 0],
    [false, true, -1],
    ['a', true, -1],
    ['u', true, 1],
    [date('2021-03-01'), '2021-03-01', 0],
    [date('2021-03-01'), date('2023-01-01T08:30:00Z'), -1],
    [date('2021-03-01'), '2021-03-01T00:00:00Z', -1],
    [date('2021-03-01'), 'a', -1],
    [null, null, 0],
    [null, 1, 1],
    [1, null, -1],
    [null, 'a', 1],
    ['a', null, -1],
  ];
  for (const [a, b, sign] of table) {
    const name = `compareForSort(${JSON.stringify(a)}, ${JSON.stringify(b)})`;
    assert.equal(Math.sign(compareForSort(a, b)), sign, name);
  }
});

test('sortPositions: keys in turn, descending the exact reverse, empty last, ties in sheet order', () => {
  const mixed: Cell[][] = [
    [3],
    ['b'],
    [null],
    [1],
    [true],
    ['a'],
    [date('2021-01-01')],
    [null],
    [1],
    ['😀'],
    ['\uFFFF'],
    ['true'],
  ];
  const people: Cell[][] = [
    ['Oslo', 30],
    ['Bergen', 40],
    ['Oslo', 20],
    [null, 50],
    ['Bergen', null],
    ['Oslo', 30],
    ['Oslo'],
  ];
  const asc = (index: number): SortOrder => ({ index, descending: false });
  const desc = (index: number): SortOrder => ({ index, descending: true });
  const table: [Cell[][], SortOrder[], number[]][] = [
    [mixed, [asc(0)], [3, 8, 0, 6, 5, 1, 4, 11, 10, 9, 2, 7]],
    [mixed, [desc(0)], [9, 10, 4, 11, 1, 5, 6, 0, 3, 8, 2, 7]],
    [mixed, [], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    [people, [asc(0), desc(1)], [1, 4, 0, 5, 2, 6, 3]],
    [people, [asc(1)], [2, 0, 5, 1, 3, 4, 6]],
    [people, [desc(1)], [3, 1, 0, 5, 2, 4, 6]],
    [people, [desc(0)], [0, 2, 5, 6, 1, 4, 3]],
    [people, [desc(0), asc(1)], [2, 0, 5, 6, 1, 4, 3]],
    [people, [asc(1), asc(0)], [2, 0, 5, 1, 3, 4, 6]],
    [people, [asc(5)], [0, 1, 2, 3, 4, 5, 6]],
    [[[true], ['true'], [true]], [desc(0)], [0, 1, 2]],
    [[[1], [1.0], ['1']], [desc(0)], [2, 0, 1]],
    [[], [asc(0)], []],
  ];
  for (const [rows, keys, expected] of table) {
    assert.deepEqual(
      sortPositions(rows, keys),
      expected,
      `${JSON.stringify(rows)} by ${JSON.stringify(keys)}`,
    );
  }
});
