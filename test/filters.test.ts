import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell, type Cell } from '../src/cells/cell.ts';
import { parseRowQuery } from '../src/query/parse-row-query.ts';
import { planRead } from '../src/query/plan.ts';
import { backend, openTestStore } from './helpers/stores.ts';

/** Every store must give the same answers: this file runs once per backend (see stores.ts). */
const stores = [{ name: backend, open: openTestStore }];

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
    const sheet = await store.createSheet(
      {
        id: 'f',
        name: 'filters',
        columns,
        source: { provider: 'scratch' },
        settings: { deleteEnabled: true },
      },
      [rows],
    );
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
      ['age=31.50', []],
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
      const { rows: found } = await store.readRows(sheet, planRead(sheet, query));
      assert.deepEqual(
        found.map((row) => row[0]),
        expected,
        queryText,
      );
    }
  });

  test(`${name}: sorting puts empty cells last and breaks ties by sheet order`, async (t) => {
    const { store, dispose } = await open();
    t.after(dispose);
    const sheet = await store.createSheet(
      {
        id: 's',
        name: 'sort',
        columns,
        source: { provider: 'scratch' },
        settings: { deleteEnabled: true },
      },
      [rows],
    );
    const names = async (queryText: string) =>
      (
        await store.readRows(
          sheet,
          planRead(sheet, parseRowQuery(Object.fromEntries(new URLSearchParams(queryText)))),
        )
      ).rows.map((row) => row[0]);
    assert.deepEqual(await names('_sort=age'), ['Bob', 'Ann', 'John', 'Joan', 'Zoë', 'jo']);
    assert.deepEqual(await names('_sort=-age'), ['Zoë', 'Joan', 'John', 'Ann', 'Bob', 'jo']);
    assert.deepEqual(await names('_sort=member,name'), ['Bob', 'jo', 'Ann', 'Joan', 'Zoë', 'John']);
    assert.deepEqual(await names('_sort=name&_limit=2&_offset=1'), ['Bob', 'Joan']);
  });
}
