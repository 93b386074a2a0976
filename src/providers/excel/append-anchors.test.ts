import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '../../cells/cell.ts';
import {
  anchorComment,
  anchorFirstAppend,
  anchorNames,
  namesToDrop,
  pushPrefix,
  referenceOf,
  worksheetMarker,
} from './append-anchors.ts';
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
  const prefix = pushPrefix('{00000000-0001-0000-0000-000000000000}', 1_800_000_000_000);
  assert.equal(anchorFirstAppend(steps, prefix), 0);
  const [step] = steps;
  assert.ok(step?.operation.kind === 'write' && step.operation.anchor !== undefined);
  const { anchor } = step.operation;
  const marker = worksheetMarker('{00000000-0001-0000-0000-000000000000}');
  assert.match(marker, /^[0-9a-f]{8}$/);
  const deadline = (1_800_000_000_000).toString(36);
  assert.match(anchor.prefix, new RegExp(`^Sheetport_${marker}_${deadline}_[0-9a-f]{16}$`));
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
  assert.equal(anchorFirstAppend(planSteps(2, rows, [update, append]), 'Sheetport_p'), 1);
  const afterDelete = planSteps(2, rows, [
    { kind: 'delete', positions: [0], before: [['Ann', 31]] },
    append,
  ]);
  assert.equal(anchorFirstAppend(afterDelete, 'Sheetport_p'), -1);
  assert.equal(
    afterDelete[1]?.operation.kind === 'write' && afterDelete[1].operation.anchor,
    undefined,
  );
});

test('an anchored append takes four places of a batch of 20', () => {
  const steps = planSteps(2, rows, [{ kind: 'append', rows: [['Zoe', 19]] }]);
  anchorFirstAppend(steps, 'Sheetport_p');
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

test("the names an append may delete: Sheetport's own form and comment, of its worksheet, of a push long over, never its own", () => {
  const now = 1_800_000_000_000;
  const settled = 6 * 60_000;
  const prefix = pushPrefix('ws-1', now + 30_000);
  const marker = worksheetMarker('ws-1');
  const old = (now - settled - 60_000).toString(36);
  const recent = (now - 1000).toString(36);
  const named = (worksheet: string, deadline: string, attempt = 'a1b2c3', kind = 'end') =>
    `Sheetport_${worksheet}_${deadline}_0123456789abcdef_${attempt}_${kind}`;
  const listed = [
    { name: named(marker, old), comment: anchorComment },
    { name: named(marker, old, 'a1b2c3', 'span'), comment: anchorComment },
    // A person's names: a name of the same form without Sheetport's comment, and others.
    { name: named(marker, old, 'ffffff'), comment: 'my range' },
    { name: `${named(marker, old, 'eeeeee')}2`, comment: anchorComment },
    { name: 'Sheetport_totals', comment: anchorComment },
    { name: 'Totals', comment: '' },
    // Another worksheet's, and a push that may still be at work (this sheet's or another's).
    { name: named(worksheetMarker('ws-2'), old), comment: anchorComment },
    { name: named(marker, recent), comment: anchorComment },
    // The push's own.
    { name: `${prefix}_abcdef_end`, comment: anchorComment },
    { comment: anchorComment },
  ];
  assert.deepEqual(namesToDrop(listed, prefix, now, settled), {
    drop: [named(marker, old), named(marker, old, 'a1b2c3', 'span')],
    kept: 1,
  });
});
