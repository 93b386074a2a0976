import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { checkRowWidth, columnLetter, columnsFromHeader } from './header.ts';

test('column letters follow spreadsheet naming', () => {
  const table: [number, string][] = [
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [51, 'AZ'],
    [52, 'BA'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ];
  for (const [index, letters] of table) assert.equal(columnLetter(index), letters);
});

function cellsOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof Problem && error.code === 'invalid-header');
    return error.extensions.cells;
  }
  assert.fail('expected the header to be refused');
}

test('a header names each column once; empty and repeated names are refused cell by cell', () => {
  assert.deepEqual(columnsFromHeader(['name', 'âge', 42]), ['name', 'âge', '42']);
  assert.deepEqual(columnsFromHeader(['name', 'age', null, '']), ['name', 'age']);
  assert.deepEqual(
    cellsOf(() => columnsFromHeader(['name', '', 'age', 'name', ' '])),
    [
      { cell: 'B1', problem: 'is empty; every column needs a name' },
      { cell: 'D1', problem: 'repeats "name", already the name of A1' },
    ],
  );
  assert.deepEqual(
    cellsOf(() => columnsFromHeader([])),
    [{ cell: 'A1', problem: 'is empty: the first row must name the columns' }],
  );
  assert.deepEqual(
    cellsOf(() => columnsFromHeader(['a', ''], { trailingEmpty: 'refuse' })),
    [{ cell: 'B1', problem: 'is empty; every column needs a name' }],
  );
});

test('a value right of the last named column is refused, empty cells there are not', () => {
  checkRowWidth(['a', 'b', null, null], 2, 5);
  assert.deepEqual(
    cellsOf(() => checkRowWidth(['a', 'b', null, 'x'], 2, 5)),
    [{ cell: 'D5', problem: 'holds a value but column D has no name in the header row' }],
  );
});
