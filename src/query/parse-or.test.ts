import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseFilter, type Filter } from './parse-filter.ts';
import { parseOr } from './parse-or.ts';

/** Each alternative means exactly what the same text means as a top-level filter. */
const filter = (column: string, raw: string): Filter => parseFilter(column, raw);

test('_or texts split into filters written as top-level ones, escapes undone', () => {
  const table: [string, Filter[]][] = [
    ['city=Oslo', [filter('city', 'Oslo')]],
    ['city=Oslo|age=__gt(40)', [filter('city', 'Oslo'), filter('age', '__gt(40)')]],
    [
      'city=Oslo|city=Bergen|city=',
      [filter('city', 'Oslo'), filter('city', 'Bergen'), filter('city', '')],
    ],
    ['name=Jo*|name=__ilike(*SON)', [filter('name', 'Jo*'), filter('name', '__ilike(*SON)')]],
    ['age=31|age=__in(1,2)', [filter('age', '31'), filter('age', '__in(1,2)')]],
    [
      'city=__in("Oslo, N",Bergen)|x=1',
      [filter('city', '__in("Oslo, N",Bergen)'), filter('x', '1')],
    ],
    ['note=a\\|b', [filter('note', 'a|b')]],
    ['note=a\\|b|note=c', [filter('note', 'a|b'), filter('note', 'c')]],
    ['note=__in("a\\|b",c)', [filter('note', '__in("a|b",c)')]],
    ['path=C:\\\\dir', [filter('path', 'C:\\dir')]],
    ['path=\\\\\\|', [filter('path', '\\|')]],
    ['a\\=b=1', [filter('a=b', '1')]],
    ['a\\|b=1', [filter('a|b', '1')]],
    ['a\\\\=1', [filter('a\\', '1')]],
    ['eq=x=y', [filter('eq', 'x=y')]],
    ['eq=x\\=y', [filter('eq', 'x=y')]],
    ['note=', [filter('note', '')]],
    ['a b=c d', [filter('a b', 'c d')]],
    ['Zoë=😀|😀=Zoë', [filter('Zoë', '😀'), filter('😀', 'Zoë')]],
    ['x_=1', [filter('x_', '1')]],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseOr(raw), expected, `parseOr(${JSON.stringify(raw)})`);
  }
});

test('malformed _or texts are refused with the alternative and position at fault', () => {
  const table: [string, RegExp, { alternative: number; position?: number; column?: string }][] = [
    [
      '',
      /_or= has no filter\. Expected filters written as <column>=<value> and separated by \|, e\.g\. _or=city=Oslo\|age=__gt\(40\)/,
      { alternative: 0, position: 0 },
    ],
    ['a=1|', /has an empty alternative \(number 2\)/, { alternative: 1, position: 4 }],
    ['|a=1', /has an empty alternative \(number 1\)/, { alternative: 0, position: 0 }],
    ['a=1||b=2', /has an empty alternative \(number 2\)/, { alternative: 1, position: 4 }],
    ['city', /has an alternative with no "=": "city"/, { alternative: 0, position: 0 }],
    ['a=1|city', /alternative with no "=": "city"/, { alternative: 1, position: 4 }],
    ['a\\=1', /alternative with no "=": "a\\=1"/, { alternative: 0, position: 0 }],
    ['=Oslo', /alternative naming no column: "=Oslo"/, { alternative: 0, position: 0 }],
    [
      '_id=1',
      /alternative on "_id": names starting with "_" are reserved/,
      { alternative: 0, position: 0 },
    ],
    ['a=1|_or=b=2', /alternative on "_or"/, { alternative: 1, position: 4 }],
    ['a=1|_sort=name', /alternative on "_sort"/, { alternative: 1, position: 4 }],
    [
      'a=x\\y',
      /a backslash followed by "y": write \\\| for a literal \|, \\\\ for a backslash/,
      { alternative: 0, position: 3 },
    ],
    ['a=1|b=x\\', /a backslash followed by nothing/, { alternative: 1, position: 7 }],
    [
      'a=1|age=__gt(4',
      /In _or=a=1\|age=__gt\(4, alternative "age=__gt\(4": Filter age=__gt\(4 is missing its closing parenthesis/,
      { alternative: 1, column: 'age' },
    ],
    [
      'age=__between(1,2)',
      /alternative "age=__between\(1,2\)": Unknown operator "__between"/,
      { alternative: 0, column: 'age' },
    ],
    ['age=__in()', /lists no values/, { alternative: 0, column: 'age', position: 9 }],
    [
      'a=1|c=__in(x,f(y))',
      /a parenthesis in an unquoted value, where it reads '\(y\)\)'/,
      { alternative: 1, column: 'c', position: 14 },
    ],
    [
      'c=__in("\\|",x(y))',
      /a parenthesis in an unquoted value/,
      { alternative: 0, column: 'c', position: 13 },
    ],
    ['c=__in("x\\|)', /no closing quote/, { alternative: 0, column: 'c', position: 7 }],
    ['c=a\u0000', /NUL character/, { alternative: 0, column: 'c' }],
  ];
  for (const [raw, message, where] of table) {
    assert.throws(
      () => parseOr(raw),
      (error: unknown) => {
        assert.ok(
          error instanceof Problem,
          `parseOr(${JSON.stringify(raw)}) threw ${String(error)}`,
        );
        assert.equal(error.code, 'invalid-filter');
        assert.match(error.detail, message);
        assert.equal(error.extensions.parameter, '_or');
        assert.equal(error.extensions.alternative, where.alternative, `alternative of ${raw}`);
        assert.equal(error.extensions.position, where.position, `position in ${raw}`);
        assert.equal(error.extensions.column, where.column, `column of ${raw}`);
        return true;
      },
      `parseOr(${JSON.stringify(raw)})`,
    );
  }
});
