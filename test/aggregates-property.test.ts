/**
 * Every aggregate and `_q`, on random sheets, against a reference computed from the rows in
 * plain JavaScript: numbers, digits as text, booleans, empty cells, Unicode and duplicates. Runs
 * once per store (see stores.ts), on small sheets (filtered in memory) and indexed ones.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cellText, DateCell, type Cell } from '../src/cells/cell.ts';
import { matchesSelection } from '../src/query/match-filter.ts';
import { foldCase } from '../src/query/match-text.ts';
import { aggregateFunctions, type AggregateFunction } from '../src/query/parse-aggregate.ts';
import { parseRowQuery, type QueryString } from '../src/query/parse-row-query.ts';
import { planAggregate } from '../src/query/plan-aggregate.ts';
import { backend, openTestStore, scratchSheet } from './helpers/stores.ts';

const columns = ['a', 'b', 'c'];

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -50, max: 50 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('31', '1.5', 'École', 'ÉCOLE', 'école', 'Straße', 'SS', 'ß', 'Σ', 'ς', 'x', '😀'),
  fc.boolean(),
  // A date shows, and groups under, its ISO text, which a text cell may also hold.
  fc.constantFrom(new DateCell('2024-03-01'), new DateCell('2024-03-01T08:30:00'), '2024-03-01'),
);

const sheetRows = fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 30 });

/**
 * A re-read of the sheet, or null for none: its rows sorted by `ranks` (a row without one keeps
 * its place), then copies of rows put in among them, as a person's sorts and copies leave
 * them. Rows keep their ids in another order, and rows put above others get new ones:
 * aggregates must still take the sheet's order for theirs.
 */
const ranks = fc.array(fc.nat(40), { maxLength: 30 });
const copies = fc.array(fc.nat(60), { minLength: 1, maxLength: 3 });
const reread = fc.option(
  fc.oneof(
    fc.record({ ranks, copies: fc.constant<number[]>([]) }),
    fc.record({ ranks: fc.constant<number[]>([]), copies }),
    fc.record({ ranks, copies }),
  ),
  { nil: null },
);

function rereadRows(
  rows: Cell[][],
  change: { ranks: readonly number[]; copies: readonly number[] } | null,
) {
  if (change === null || rows.length === 0) return rows;
  const rank = (i: number) => change.ranks[i] ?? i;
  const read = rows.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b);
  const sorted = read.map((i) => rows[i] ?? []);
  for (const copy of change.copies) {
    sorted.splice(copy % (sorted.length + 1), 0, [...(sorted[copy % sorted.length] ?? [])]);
  }
  return sorted;
}

const aggregate = fc.record({
  fn: fc.constantFrom(...aggregateFunctions),
  column: fc.constantFrom(...columns),
  rows: fc.boolean(),
});

const request = fc.record({
  group: fc.subarray(columns, { maxLength: 2 }),
  aggregates: fc.array(aggregate, { maxLength: 4 }),
  search: fc.option(
    fc.constantFrom('é', 'ÉCOLE', 'ss', 'SS', 'σ', '3', '1.5', 'tru', '😀', 'x', 't08', '-03-'),
    {
      nil: null,
    },
  ),
  filter: fc.option(fc.constantFrom('a=__gt(0)', 'b=x', 'c=__ne(31)'), { nil: null }),
  /** Keys of the answer to sort by, as indexes into them (wrapped), and the direction. */
  sort: fc.array(fc.record({ at: fc.nat(9), descending: fc.boolean() }), { maxLength: 2 }),
  page: fc.option(fc.record({ limit: fc.nat(4), offset: fc.nat(4) }), { nil: null }),
});

type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The query string a request is, each aggregate once. */
function queryOf(req: Request): QueryString {
  const expressions = [
    ...new Set(
      req.aggregates.map(({ fn, column, rows }) =>
        fn === 'count' && rows ? 'count()' : `${fn}(${column})`,
      ),
    ),
  ];
  const query: QueryString = {};
  if (req.group.length > 0) query._group = req.group.join(',');
  if (expressions.length > 0 || req.group.length === 0) {
    query._agg = expressions.length > 0 ? expressions.join(',') : 'count()';
  }
  if (req.search !== null) query._q = req.search;
  if (req.filter !== null) {
    const [column = '', value = ''] = req.filter.split('=');
    query[column] = value;
  }
  const keys = [
    ...req.group,
    ...String(query._agg ?? '')
      .split(',')
      .filter(Boolean),
  ];
  const sort = [...new Set(req.sort.map(({ at }) => at % keys.length))].map((at) => {
    const descending = req.sort.find((key) => key.at % keys.length === at)?.descending ?? false;
    return `${descending ? '-' : ''}${keys[at] ?? ''}`;
  });
  if (sort.length > 0) query._sort = sort.join(',');
  if (req.page !== null) {
    query._limit = String(req.page.limit);
    query._offset = String(req.page.offset);
  }
  return query;
}

/**
 * The order of `_sort` on groups, written out again: empty last either way, numbers by value
 * before any other cell, which compares by the code points of its text.
 */
function compareGroups(x: Cell, y: Cell, descending: boolean): number {
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  let order: number;
  if (typeof x === 'number' && typeof y === 'number') order = x - y;
  else if (typeof x === 'number') order = -1;
  else if (typeof y === 'number') order = 1;
  else {
    const a = Array.from(String(x), (c) => c.codePointAt(0) ?? 0);
    const b = Array.from(String(y), (c) => c.codePointAt(0) ?? 0);
    const at = a.findIndex((point, i) => point !== b[i]);
    order = at < 0 ? a.length - b.length : at >= b.length ? 1 : (a[at] ?? 0) - (b[at] ?? 0);
  }
  return descending ? -order : order;
}

/** What the answer must be, computed from the rows one by one: its page, and the total. */
function reference(rows: Cell[][], query: QueryString): { total: number; page: Cell[][] } {
  const parsed = parseRowQuery(query);
  const plan = planAggregate({ name: 'p', columns }, parsed);
  const { selection } = plan;
  assert.ok('filters' in selection);
  const chosen = rows.filter((row) => {
    const filtered = matchesSelection({ filters: selection.filters, any: selection.any }, row);
    const search = parsed.search;
    return (
      filtered &&
      (search === null ||
        row.some((c) => c !== null && foldCase(cellText(c)).includes(foldCase(search))))
    );
  });
  const groups = new Map<string, Cell[][]>();
  for (const row of chosen) {
    const key = JSON.stringify(plan.group.map((i) => row[i] ?? null));
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  if (plan.group.length === 0 && groups.size === 0) groups.set('[]', []);
  const answer = [...groups.values()].map((members) => [
    ...plan.group.map((i) => {
      const first = members[0]?.[i] ?? null;
      return first instanceof DateCell ? first.iso : first;
    }),
    ...plan.aggregates.map(({ fn, index }) =>
      value(
        fn,
        members.map((row) => (index === null ? true : (row[index] ?? null))),
      ),
    ),
  ]);
  const sorted = [...answer].sort((a, b) => {
    for (const { key, descending } of plan.sort) {
      const order = compareGroups(a[key] ?? null, b[key] ?? null, descending);
      if (order !== 0) return order;
    }
    return 0;
  });
  const end = plan.limit === null ? undefined : plan.offset + plan.limit;
  return { total: sorted.length, page: sorted.slice(plan.offset, end) };
}

function value(fn: AggregateFunction, cells: Cell[]): number | null {
  const present = cells.filter((c) => c !== null);
  const numbers = present.filter((c): c is number => typeof c === 'number');
  switch (fn) {
    case 'count':
      return present.length;
    case 'count_distinct':
      return new Set(present.map((c) => JSON.stringify(c))).size;
    case 'sum':
      return numbers.length === 0 ? null : numbers.reduce((s, n) => s + n, 0);
    case 'avg':
      return numbers.length === 0 ? null : numbers.reduce((s, n) => s + n, 0) / numbers.length;
    case 'min':
      return numbers.length === 0 ? null : Math.min(...numbers);
    case 'max':
      return numbers.length === 0 ? null : Math.max(...numbers);
  }
}

/** Equal, sums and averages within a relative tolerance (the databases add in their own order). */
function same(found: Cell, expected: Cell): boolean {
  if (typeof found === 'number' && typeof expected === 'number') {
    const scale = Math.max(1, Math.abs(expected));
    return Math.abs(found - expected) <= 1e-9 * scale || Object.is(found, expected);
  }
  return found === expected;
}

for (const shape of [
  { name: 'small sheets', store: {} },
  { name: 'indexed sheets', store: { indexThreshold: 0 } },
]) {
  test(`${backend}, ${shape.name}: every aggregate and _q agree with a reference`, async (t) => {
    const { store, dispose } = await openTestStore(shape.store);
    t.after(dispose);
    let made = 0;
    await fc.assert(
      fc.asyncProperty(
        sheetRows,
        reread,
        fc.array(request, { minLength: 1, maxLength: 4 }),
        async (createdRows, picks, reqs) => {
          const sheet = await store.createSheet(scratchSheet(`p${made++}`, columns, 'p'), [
            createdRows,
          ]);
          const rows = rereadRows(createdRows, picks);
          // Read as the sheet is now: a read is of the sheet as its caller found it.
          const current =
            picks === null ? sheet : (await store.replaceRows(sheet.id, columns, rows)).sheet;
          for (const req of reqs) {
            const query = queryOf(req);
            const answer = await store.readAggregate(
              current,
              planAggregate(current, parseRowQuery(query)),
            );
            const { total, page: expected } = reference(rows, query);
            const label = `${JSON.stringify(query)} over ${JSON.stringify(rows)}: ${JSON.stringify(answer.rows)}`;
            assert.equal(answer.rows.length, expected.length, label);
            assert.equal(answer.total, total, label);
            answer.rows.forEach((row, i) => {
              const want = expected[i] ?? [];
              assert.ok(
                row.length === want.length && row.every((c, j) => same(c, want[j] ?? null)),
                `${label}\nexpected ${JSON.stringify(expected)}`,
              );
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
}

test(`${backend}: groups of an indexed sheet whose rows a re-read moved come in the rows' new order`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 0 });
  t.after(dispose);
  const sheet = await store.createSheet(scratchSheet('moved', columns, 'moved'), [
    [
      ['x', 1, 'k'],
      ['y', 2, 'k'],
      ['z', 3, 'k'],
    ],
  ]);
  // A person's sort: the rows keep their ids, now in another order.
  const sorted = [
    ['z', 3, 'k'],
    ['x', 1, 'k'],
    ['y', 2, 'k'],
  ];
  const { sheet: current } = await store.replaceRows(sheet.id, columns, sorted);
  const query = { _group: 'a', _agg: 'sum(b)', c: 'k' };
  const answer = await store.readAggregate(current, planAggregate(current, parseRowQuery(query)));
  assert.deepEqual(answer.rows, [
    ['z', 3],
    ['x', 1],
    ['y', 2],
  ]);
});
