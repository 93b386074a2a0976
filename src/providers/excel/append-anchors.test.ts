import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '../../cells/cell.ts';
import { anchorFirstAppend, anchorNames, anchorPrefix, referenceOf } from './append-anchors.ts';
import { planSteps, requestCount } from './excel-operations.ts';
import { nextChunk } from './push-channel.ts';

const rows: Cell[][] = [
  ['Ann', 31],
  ['Bob', 27],
];

test("an append's anchor: the rows it fills and the span from the last row to the one below", () => {
  const steps = planSteps(2, rows, [
    {
      kind: 'append',
      rows: [
        ['Zoe', 19],
        ['Ivy', 22],
      ],
    },
  ]);
  assert.equal(anchorFirstAppend(steps), 0);
  const [step] = steps;
  assert.ok(step?.operation.kind === 'write' && step.operation.anchor !== undefined);
  const { anchor } = step.operation;
  assert.match(anchor.prefix, new RegExp(`^${anchorPrefix}[0-9a-f]{16}$`));
  // Rows 2-3 hold Ann and Bob under the header: the append fills 4-5; the span is rows 3-4.
  assert.equal(anchor.endAddress, 'A4:B5');
  assert.equal(anchor.spanAddress, 'A3:B4');
  assert.equal(requestCount(step.operation), 4, 'insert, write and the deletes of its names');
});

test('only a first append after updates is anchored: one after a delete keeps its address', () => {
  const update = {
    kind: 'update' as const,
    positions: [0],
    cells: new Map<number, Cell>([[1, 32]]),
    before: [['Ann', 31]] as Cell[][],
    after: [['Ann', 32]] as Cell[][],
  };
  const append = { kind: 'append' as const, rows: [['Zoe', 19]] as Cell[][] };
  assert.equal(anchorFirstAppend(planSteps(2, rows, [update, append])), 1);
  const afterDelete = planSteps(2, rows, [
    { kind: 'delete', positions: [0], before: [['Ann', 31]] },
    append,
  ]);
  assert.equal(anchorFirstAppend(afterDelete), -1);
  assert.equal(
    afterDelete[1]?.operation.kind === 'write' && afterDelete[1].operation.anchor,
    undefined,
  );
});

test('an anchored append takes four places of a batch of 20', () => {
  const steps = planSteps(2, rows, [{ kind: 'append', rows: [['Zoe', 19]] }]);
  anchorFirstAppend(steps);
  const operations = steps.map((step) => step.operation);
  const deletes = Array.from({ length: 17 }, (_, i) => ({
    kind: 'delete' as const,
    address: `${30 - i}:${30 - i}`,
  }));
  assert.equal(nextChunk([...operations, ...deletes], 0).length, 17, 'the append and 16 deletes');
});

test('names of each attempt differ under the push prefix; references are absolute and quoted as Excel quotes', () => {
  const first = anchorNames('Sheetport_ab');
  const second = anchorNames('Sheetport_ab');
  assert.notEqual(first.end, second.end);
  assert.match(first.end, /^Sheetport_ab_[0-9a-f]{6}_end$/);
  assert.match(first.span, /^Sheetport_ab_[0-9a-f]{6}_span$/);
  assert.equal(referenceOf('People', 'A7:C8'), '=People!$A$7:$C$8');
  assert.equal(referenceOf("Ann's list", 'A7:C8'), "='Ann''s list'!$A$7:$C$8");
  assert.equal(referenceOf('AB12', 'B3'), "='AB12'!$B$3");
});
