import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell, type Cell } from '../cells/cell.ts';
import { matchesFilter, matchesSelection } from './match-filter.ts';
import { parseFilter } from './parse-filter.ts';
import { parseRowQuery } from './parse-row-query.ts';
import { planRead, type PlannedFilter } from './plan.ts';

/** One cell of every kind, and the edges of each: every filter below is tried on all of them. */
const cells: [string, Cell][] = [
  ['empty', null],
  ['0', 0],
  ['31', 31],
  ['31.5', 31.5],
  ['0.1', 0.1],
  ['-2.5', -2.5],
  ['1e21', 1e21],
  ['2^53', 2 ** 53],
  ['huge', 12345678901234567000],
  ["'31'", '31'],
  ["'031'", '031'],
  ["'1e+21'", '1e+21'],
  ['Ann', 'Ann'],
  ['ann', 'ann'],
  ['a*b', 'a*b'],
  ['a\\nb', 'a\nb'],
  ['true', true],
  ['false', false],
  ["'true'", 'true'],
  ['date', new DateCell('2021-03-01')],
  ['datetime', new DateCell('2023-01-01T08:30:00Z')],
  ['Straße', 'Straße'],
  ['STRASSE', 'STRASSE'],
  ['ΟΔΟΣ', 'ΟΔΟΣ'],
  ['οδος', 'οδος'],
  ['İstanbul', 'İstanbul'],
  ['ıstanbul', 'ıstanbul'],
  ['ISTANBUL', 'ISTANBUL'],
  ['😀', '😀'],
  ['U+FFFF', '\uFFFF'],
  ['Zoë', 'Zoë'],
];
const names = cells.map(([name]) => name);
const numbers = ['0', '31', '31.5', '0.1', '-2.5', '1e21', '2^53', 'huge'];
const booleans = ['true', 'false'];
const but = (...left: string[]) => names.filter((name) => !left.includes(name));
/** Cells that `gt` and the like compare as text: text and dates. */
const texts = but('empty', ...numbers, ...booleans);
const textsBut = (...left: string[]) => texts.filter((name) => !left.includes(name));

const planned = (raw: string): PlannedFilter => ({ ...parseFilter('c', raw), index: 0 });

test('each filter matches exactly these cells', () => {
  const table: [string | PlannedFilter, string[]][] = [
    // Equality: a number cell by value, any other non-empty cell by the text it shows.
    ['Ann', ['Ann']],
    ['ann', ['ann']],
    ['31', ['31', "'31'"]],
    ['031', ["'031'"]],
    // A number written as a file or a person writes it matches the number cell by value.
    ['31.0', ['31']],
    ['31.50', ['31.5']],
    ['0.10', ['0.1']],
    ['-2.50', ['-2.5']],
    ['0.0', ['0']],
    ['-0', []],
    ['+31', []],
    ['31.', []],
    ['31.5*', ['31.5']],
    ['31.50*', []],
    ['__eq(31.0)', ['31']],
    ['__eq(31)', ['31', "'31'"]],
    ['31.5', ['31.5']],
    ['0.1', ['0.1']],
    ['0', ['0']],
    ['-2.5', ['-2.5']],
    ['1e+21', ['1e21', "'1e+21'"]],
    ['1e21', []],
    ['__eq(1e21)', ['1e21']],
    ['9007199254740992', ['2^53']],
    ['12345678901234567000', ['huge']],
    ['true', ['true', "'true'"]],
    ['false', ['false']],
    ['TRUE', []],
    ['2021-03-01', ['date']],
    ['2023-01-01T08:30:00Z', ['datetime']],
    ['', ['empty']],
    ['__eq()', ['empty']],
    ['__eq(a*b)', ['a*b']],
    ['a\nb', ['a\\nb']],
    ['😀', ['😀']],
    ['Strasse', []],
    // Not equal: the exact negation of equality, so empty cells match unless the value is empty.
    ['__ne(31)', but('31', "'31'")],
    ['__ne()', but('empty')],
    ['__ne(true)', but('true', "'true'")],
    ['__ne(Ann)', but('Ann')],
    ['__ne(1e21)', but('1e21')],
    ['__ne(31.0)', but('31')],
    // In: equal to any value, each typed as in col=v; not in: equal to none.
    ['__in(Ann,31)', ['Ann', '31', "'31'"]],
    ['__in(31.0,ann)', ['31', 'ann']],
    ['__in(31.50,0.10,031)', ['31.5', '0.1', "'031'"]],
    ['__in(,Ann)', ['empty', 'Ann']],
    ['__in("")', ['empty']],
    ['__in(true,2021-03-01,1e+21)', ['1e21', "'1e+21'", 'true', "'true'", 'date']],
    ['__in(a*b,😀)', ['a*b', '😀']],
    ['__in(x)', []],
    ['__nin(Ann,31)', but('Ann', '31', "'31'")],
    ['__nin(,Ann)', but('empty', 'Ann')],
    ['__nin(x)', names],
    ['__nin(0.1,false)', but('0.1', 'false')],
    // Equal ignoring case: the folded text a non-empty cell shows, numbers included.
    ['__ieq(ann)', ['Ann', 'ann']],
    ['__ieq(ANN)', ['Ann', 'ann']],
    ['__ieq(STRASSE)', ['Straße', 'STRASSE']],
    ['__ieq(straße)', ['Straße', 'STRASSE']],
    ['__ieq(STRAẞE)', ['Straße', 'STRASSE']],
    ['__ieq(οδοσ)', ['ΟΔΟΣ', 'οδος']],
    ['__ieq(ΟΔΟς)', ['ΟΔΟΣ', 'οδος']],
    ['__ieq(ISTANBUL)', ['ıstanbul', 'ISTANBUL']],
    ['__ieq(i\u0307stanbul)', ['İstanbul']],
    ['__ieq(TRUE)', ['true', "'true'"]],
    ['__ieq(1E+21)', ['1e21', "'1e+21'"]],
    ['__ieq(31)', ['31', "'31'"]],
    ['__ieq(31.0)', []],
    ['__ieq(2023-01-01t08:30:00z)', ['datetime']],
    ['__ieq(zOË)', ['Zoë']],
    ['__ieq(😀)', ['😀']],
    ['__ieq(A*B)', ['a*b']],
    [{ column: 'c', op: 'ieq', value: { text: '', number: null }, index: 0 }, []],
    // Wildcards: a non-empty cell's shown text, numbers as JavaScript writes them.
    ['*', but('empty')],
    ['A*', ['Ann']],
    ['*nn', ['Ann', 'ann']],
    ['3*', ['31', '31.5', "'31'"]],
    ['*e+21', ['1e21', "'1e+21'"]],
    ['0.*', ['0.1']],
    ['-*', ['-2.5']],
    ['9007*', ['2^53']],
    ['1234*000', ['huge']],
    ['tr*', ['true', "'true'"]],
    ['TR*', []],
    ['2021-*', ['date']],
    ['*T08:*', ['datetime']],
    ['a*b', ['a*b', 'a\\nb']],
    ['*😀*', ['😀']],
    ['Stra*e', ['Straße']],
    ['*SS*', ['STRASSE']],
    // Wildcards ignoring case: folded pattern against folded text.
    ['__ilike(a*)', ['Ann', 'ann', 'a*b', 'a\\nb']],
    ['__ilike(*SS*)', ['Straße', 'STRASSE']],
    ['__ilike(*ß*)', ['Straße', 'STRASSE']],
    ['__ilike(οδοσ*)', ['ΟΔΟΣ', 'οδος']],
    ['__ilike(*Σ)', ['ΟΔΟΣ', 'οδος']],
    ['__ilike(*ς*)', ['ΟΔΟΣ', 'οδος']],
    ['__ilike(i*)', ['İstanbul', 'ıstanbul', 'ISTANBUL']],
    ['__ilike(i\u0307*)', ['İstanbul']],
    ['__ilike(TRU*)', ['true', "'true'"]],
    ['__ilike(*E+21)', ['1e21', "'1e+21'"]],
    ['__ilike(*)', but('empty')],
    ['__ilike(zoË)', ['Zoë']],
    ['__ilike(*T08*Z)', ['datetime']],
    // Comparisons with a number: number cells only, by value.
    ['__gt(30)', ['31', '31.5', '1e21', '2^53', 'huge']],
    ['__ge(31)', ['31', '31.5', '1e21', '2^53', 'huge']],
    ['__gt(31)', ['31.5', '1e21', '2^53', 'huge']],
    ['__lt(0.1)', ['0', '-2.5']],
    ['__le(0.1)', ['0', '0.1', '-2.5']],
    ['__gt(-1)', ['0', '31', '31.5', '0.1', '1e21', '2^53', 'huge']],
    ['__lt(-2.5)', []],
    ['__le(-2.50)', ['-2.5']],
    ['__gt(1e21)', []],
    ['__ge(1e21)', ['1e21']],
    ['__gt(9007199254740991)', ['1e21', '2^53', 'huge']],
    ['__lt(1e400)', numbers],
    // Comparisons with text: text and date cells, by code point; never true/false.
    [
      '__gt(M)',
      [
        'ann',
        'a*b',
        'a\\nb',
        "'true'",
        'Straße',
        'STRASSE',
        'ΟΔΟΣ',
        'οδος',
        'İstanbul',
        'ıstanbul',
        '😀',
        'U+FFFF',
        'Zoë',
      ],
    ],
    ['__lt(2022-01)', ["'031'", "'1e+21'", 'date']],
    ['__ge(2021-03-01)', textsBut("'031'", "'1e+21'")],
    ['__lt(2021-03-01)', ["'031'", "'1e+21'"]],
    ['__gt(2021-03-01)', textsBut("'031'", "'1e+21'", 'date')],
    ['__gt(\uFFFF)', ['😀']],
    ['__ge(\uFFFF)', ['😀', 'U+FFFF']],
    ['__lt(😀)', textsBut('😀')],
    ['__le(true)', textsBut('ΟΔΟΣ', 'οδος', 'İstanbul', 'ıstanbul', '😀', 'U+FFFF')],
    ['__gt(true)', ['ΟΔΟΣ', 'οδος', 'İstanbul', 'ıstanbul', '😀', 'U+FFFF']],
    [
      '__lt(a)',
      [
        "'31'",
        "'031'",
        "'1e+21'",
        'Ann',
        'date',
        'datetime',
        'Straße',
        'STRASSE',
        'ISTANBUL',
        'Zoë',
      ],
    ],
    [
      '__gt(Zo)',
      textsBut(
        "'31'",
        "'031'",
        "'1e+21'",
        'Ann',
        'date',
        'datetime',
        'Straße',
        'STRASSE',
        'ISTANBUL',
      ),
    ],
    ['__lt(1x)', ["'031'", "'1e+21'"]],
    ['__gt(1x)', textsBut("'031'", "'1e+21'")],
    [{ column: 'c', op: 'gt', value: { text: '', number: null }, index: 0 }, texts],
  ];
  for (const [raw, expected] of table) {
    const filter = typeof raw === 'string' ? planned(raw) : raw;
    const found = cells.filter(([, cell]) => matchesFilter(filter, cell)).map(([name]) => name);
    assert.deepEqual(
      found,
      names.filter((name) => expected.includes(name)),
      `c=${JSON.stringify(raw)}`,
    );
  }
});

test('a row is selected by every filter and at least one alternative of each _or', () => {
  const sheet = { name: 'people', columns: ['name', 'age', 'city'] };
  const rows: Cell[][] = [
    ['Ann', 31, 'Oslo'],
    ['Bob', 45, 'Bergen'],
    ['Cid', null, 'Oslo'],
    ['Dee', 52, null],
    ['Eve', 19],
  ];
  const table: [string, string[]][] = [
    ['', ['Ann', 'Bob', 'Cid', 'Dee', 'Eve']],
    ['city=Oslo', ['Ann', 'Cid']],
    ['_or=city=Oslo', ['Ann', 'Cid']],
    ['_or=city=Oslo|age=__gt(40)', ['Ann', 'Bob', 'Cid', 'Dee']],
    ['_or=city=|age=', ['Cid', 'Dee', 'Eve']],
    ['_or=city=Oslo|city=Bergen&_or=age=__lt(40)|age=', ['Ann', 'Cid']],
    ['name=__ne(Ann)&_or=city=Oslo|age=__gt(50)', ['Cid', 'Dee']],
    ['_or=name=__ieq(ann)|name=__ilike(e*)', ['Ann', 'Eve']],
    ['_or=city=__in(Oslo,Bergen)&_or=name=x', []],
    ['city=__nin(Oslo)&_or=age=__ge(45)|name=Eve', ['Bob', 'Dee', 'Eve']],
  ];
  for (const [queryText, expected] of table) {
    const query = parseRowQuery(groupParams(queryText));
    const { selection } = planRead(sheet, query);
    assert.ok('filters' in selection);
    const found = rows.filter((row) => matchesSelection(selection, row)).map((row) => row[0]);
    assert.deepEqual(found, expected, queryText);
  }
});

/** A query string as Fastify reads it: a repeated parameter becomes a list. */
function groupParams(text: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}
