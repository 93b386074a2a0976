/** The small formula evaluator: arithmetic, references, functions and Excel's error values. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellError, type Scalar } from './cell.ts';
import { evaluate } from './formula.ts';

// A1 = 2, B1 = 3, A2 = "x", B2 = TRUE; everything else empty.
const cells: Record<string, Scalar> = { '0,0': 2, '0,1': 3, '1,0': 'x', '1,1': true };
const read = (row: number, column: number): Scalar => cells[`${row},${column}`] ?? '';

describe('evaluate', () => {
  const cases: [string, Scalar][] = [
    ['=1+2*3', 7],
    ['=(1+2)*3', 9],
    ['=2^3^2', 512],
    ['=-A1+B1', 1],
    ['=A1*B1', 6],
    ['=$A$1+1', 3],
    ['=C9+1', 1],
    ['=SUM(A1:B1)', 5],
    ['=SUM(A1:B2)', 5],
    ['=AVERAGE(A1:B1)', 2.5],
    ['=MAX(A1,B1,10)', 10],
    ['=COUNT(A1:B2)', 2],
    ['=A2&"y"', 'xy'],
    ['="a""b"', 'a"b'],
    ['=A1<B1', true],
    ['=A2="X"', true],
    ['=B2+1', 2],
    ['=TRUE', true],
    ['=1/0', new CellError('#DIV/0!')],
    ['=A2+1', new CellError('#VALUE!')],
    ['=NOPE(1)', new CellError('#NAME?')],
    ['=foo', new CellError('#NAME?')],
    ['=1+', new CellError('#VALUE!')],
    ['=1 2', new CellError('#VALUE!')],
    ['=SUM(1/0)', new CellError('#DIV/0!')],
  ];
  for (const [formula, expected] of cases) {
    it(`${formula} → ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(evaluate(formula, read), expected));
  }
});
