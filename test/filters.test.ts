import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cellText, DateCell, type Cell } from '../src/cells/cell.ts';
import { matchesSelection } from '../src/query/match-filter.ts';
import { parseFilter } from '../src/query/parse-filter.ts';
import { parseRowQuery } from '../src/query/parse-row-query.ts';
import { planRead, type ReadPlan } from '../src/query/plan.ts';
import { sortPositions } from '../src/query/sort-rows.ts';
import { backend, openTestStore, readRows, scratchSheet } from './helpers/stores.ts';

/**
 * Every store must give the same answers: this file runs once per backend (see stores.ts), and
 * on each both ways of filtering: small sheets in memory, and sheets in the cell index.
 */
const stores = [
  { name: backend, open: () => openTestStore() },
  { name: `${backend}, indexed`, open: () => openTestStore({ indexThreshold: 0 }) },
];

const columns = ['name', 'age', 'note', 'member', 'joined'];
const rows: Cell[][] = [
  ['Ann', 31, 'a*b', true, new DateCell('2021-03-01')],
  ['Bob', 27, null, false, new DateCell('2019-11-20')],
  ['Joan', 45, '31', true, null],
  ['John', 31.5, 'x?y', null, new DateCell('2023-01-01T08:30:00')],
  ['jo', null, '[z]', false, null],
  ['Zoë', 'unknown', 'Zebra', true, null],
];

for (const { name, open } of stores) {
  test(`${name}: filters select the same rows as a person reading the sheet would`, async (t) => {
    const { store, dispose } = await open();
    t.after(dispose);
    const sheet = await store.createSheet(scratchSheet('f', columns, 'filters'), [rows]);
    const table: [string, string[]][] = [
      ['name=Ann', ['Ann']],
      ['name=ann', []],
      ['name=Jo*', ['Joan', 'John']],
      ['name=*o*', ['Bob', 'Joan', 'John', 'jo', 'Zoë']],
      ['name=J*n', ['Joan', 'John']],
      ['age=31', ['Ann']],
      ['note=31', ['Joan']],
      ['age=', ['jo']],
      ['note=a*b', ['Ann']],
      ['note=__eq(a*b)', ['Ann']],
      ['note=x?y', ['John']],
      ['note=x?*', ['John']],
      ['note=x*y', ['John']],
      ['note=[z]', ['jo']],
      ['age=__gt(30)', ['Ann', 'Joan', 'John']],
      ['age=__ge(31)', ['Ann', 'Joan', 'John']],
      ['age=__lt(31)', ['Bob']],
      ['age=__le(31.5)', ['Ann', 'Bob', 'John']],
      ['age=__eq(31)', ['Ann']],
      ['age=__eq(31.50)', ['John']],
      ['age=31.50', ['John']],
      ['age=31.0', ['Ann']],
      ['note=31.0', []],
      ['age=31.5*', ['John']],
      ['age=31.50*', []],
      ['age=-0', []],
      ['age=__in(31.50,27.0)', ['Bob', 'John']],
      ['age=__nin(31.00,unknown)', ['Bob', 'Joan', 'John', 'jo']],
      ['age=31.5', ['John']],
      ['age=031', []],
      ['member=__gt(a)', []],
      ['member=__le(zzz)', []],
      ['age=__ne(31)', ['Bob', 'Joan', 'John', 'jo', 'Zoë']],
      ['age=__ne()', ['Ann', 'Bob', 'Joan', 'John', 'Zoë']],
      ['age=__gt(unk)', ['Zoë']],
      ['name=__lt(K)', ['Ann', 'Bob', 'Joan', 'John']],
      ['member=true', ['Ann', 'Joan', 'Zoë']],
      ['member=false', ['Bob', 'jo']],
      ['joined=__ge(2021-01-01)', ['Ann', 'John']],
      ['joined=2019*', ['Bob']],
      ['name=Jo*&age=__gt(40)', ['Joan']],
      ['name=Zoë', ['Zoë']],
      ["name=' OR 1=1; --", []],
    ];
    for (const [queryText, expected] of table) {
      const query = parseRowQuery(Object.fromEntries(new URLSearchParams(queryText)));
      const plan = planRead(sheet, query);
      const found = await readRows(store, sheet, plan);
      assert.deepEqual(
        found.map((row) => row[0]),
        expected,
        queryText,
      );
      assert.deepEqual(reference(rows, plan), found, `${queryText}, by the reference`);
    }
  });

  test(`${name}: sorting puts empty cells last and breaks ties by sheet order`, async (t) => {
    const { store, dispose } = await open();
    t.after(dispose);
    const sheet = await store.createSheet(scratchSheet('s', columns, 'sort'), [rows]);
    const names = async (queryText: string) =>
      (
        await readRows(
          store,
          sheet,
          planRead(sheet, parseRowQuery(Object.fromEntries(new URLSearchParams(queryText)))),
        )
      ).map((row) => row[0]);
    assert.deepEqual(await names('_sort=age'), ['Bob', 'Ann', 'John', 'Joan', 'Zoë', 'jo']);
    assert.deepEqual(await names('_sort=-age'), ['Zoë', 'Joan', 'John', 'Ann', 'Bob', 'jo']);
    assert.deepEqual(await names('_sort=member,name'), ['Bob', 'jo', 'Ann', 'Joan', 'Zoë', 'John']);
    assert.deepEqual(await names('_sort=name&_limit=2&_offset=1'), ['Bob', 'Joan']);
  });
}

/** What the JavaScript definition of filters and sorts reads from `rows` for a plan. */
function reference(rows: Cell[][], plan: ReadPlan): Cell[][] {
  const selection = plan.selection;
  assert.ok('filters' in selection);
  const chosen = rows.filter((row) => matchesSelection(selection, row));
  const sorted = sortPositions(chosen, plan.sort).map((position) => chosen[position] ?? []);
  return sorted.slice(plan.offset, plan.limit === null ? undefined : plan.offset + plan.limit);
}

/** Cells at the edges of every kind, for the store and the reference to disagree on if they can. */
const edgeCells: Cell[] = [
  null,
  0,
  31,
  31.5,
  0.1,
  -2.5,
  1e21,
  1e-7,
  2 ** 53,
  12345678901234567000,
  '31',
  '031',
  '1e+21',
  '1.50',
  '31.0',
  'Ann',
  'ann',
  'a*b',
  'a\nb',
  'x?y',
  '[z]',
  '50%',
  'a_b',
  'C:\\dir',
  true,
  false,
  'true',
  new DateCell('2021-03-01'),
  new DateCell('2023-01-01T08:30:00Z'),
  'Straße',
  'ΟΔΟΣ',
  'İstanbul',
  '😀',
  '\uFFFF',
  'Zoë',
];

for (const { name, open } of stores) {
  test(`${name}: the store reads what the JavaScript definition of filters and sorts says`, async (t) => {
    const { store, dispose } = await open();
    t.after(dispose);
    const width = 3;
    const edgeRows = edgeCells.map((cell, i) =>
      Array.from({ length: width }, (_, c) =>
        c === 0 ? cell : (edgeCells[(i * (2 * c + 5) + c) % edgeCells.length] ?? null),
      ),
    );
    const columns = ['a', 'b', 'c'];
    const sheet = await store.createSheet(scratchSheet('r', columns, 'reference'), [edgeRows]);
    const shown = edgeCells.filter((cell) => cell !== null).map(cellText);
    const value = fc.oneof(
      fc.constantFrom(
        ...shown,
        '',
        '30',
        '31.0',
        '31.50',
        '0.10',
        '1.5',
        '-0.0',
        '1e21',
        '1E+21',
        'M',
        '2022-01',
        'a',
        'TRUE',
      ),
      fc.string({ maxLength: 4 }),
    );
    const piece = fc.oneof(
      fc
        .constantFrom(...shown)
        .chain((text) =>
          fc
            .tuple(fc.nat(text.length), fc.nat(text.length))
            .map(([from, to]) => text.slice(Math.min(from, to), Math.max(from, to))),
        ),
      fc.constantFrom('', '?', '[', '%', '_', '\\'),
    );
    const filterText = fc.oneof(
      value,
      fc
        .tuple(fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le'), value)
        .map(([op, text]) => `__${op}(${text})`),
      fc.array(piece, { minLength: 2, maxLength: 4 }).map((pieces) => pieces.join('*')),
    );
    const filter = fc
      .record({ column: fc.constantFrom(...columns), raw: filterText })
      .filter(({ column, raw }) => parses(column, raw));
    const sortKey = fc
      .record({ column: fc.constantFrom(...columns), descending: fc.boolean() })
      .map(({ column, descending }) => `${descending ? '-' : ''}${column}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(filter, { maxLength: 3 }),
        fc.array(sortKey, { maxLength: 2 }),
        async (filters, sort) => {
          const query = parseRowQuery({
            ...Object.fromEntries(columns.map((column) => [column, []])),
            ...groupByColumn(filters),
            ...(sort.length > 0 ? { _sort: sort.join(',') } : {}),
          });
          const plan = planRead(sheet, query);
          const found = await readRows(store, sheet, plan);
          assert.deepEqual(found, reference(edgeRows, plan));
        },
      ),
      { numRuns: 300, includeErrorInReport: true },
    );
  });
}

function parses(column: string, raw: string): boolean {
  try {
    parseFilter(column, raw);
    return true;
  } catch {
    return false;
  }
}

function groupByColumn(filters: { column: string; raw: string }[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const { column, raw } of filters) (grouped[column] ??= []).push(raw);
  return grouped;
}
