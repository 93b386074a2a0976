import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseFilter, type Filter, type FilterValue } from './parse-filter.ts';

const value = (text: string, number: number | null = null) => ({ text, number });
const list = (op: 'in' | 'nin', ...values: FilterValue[]): Filter => ({ column: 'c', op, values });

test('filter texts parse into equality, wildcard and operator filters', () => {
  const table: [string, Filter][] = [
    ['Ann', { column: 'c', op: 'eq', value: value('Ann') }],
    ['31', { column: 'c', op: 'eq', value: value('31', 31) }],
    ['-2.5', { column: 'c', op: 'eq', value: value('-2.5', -2.5) }],
    ['031', { column: 'c', op: 'eq', value: value('031') }],
    ['31.0', { column: 'c', op: 'eq', value: value('31.0', 31) }],
    ['1.50', { column: 'c', op: 'eq', value: value('1.50', 1.5) }],
    ['20.00', { column: 'c', op: 'eq', value: value('20.00', 20) }],
    ['1e+21', { column: 'c', op: 'eq', value: value('1e+21', 1e21) }],
    ['-0', { column: 'c', op: 'eq', value: value('-0') }],
    ['-0.0', { column: 'c', op: 'eq', value: value('-0.0') }],
    ['.5', { column: 'c', op: 'eq', value: value('.5') }],
    ['1,50', { column: 'c', op: 'eq', value: value('1,50') }],
    ['12345678901234567', { column: 'c', op: 'eq', value: value('12345678901234567') }],
    ['__eq(31.0)', { column: 'c', op: 'eq', value: value('31.0', 31) }],
    ['', { column: 'c', op: 'eq', value: value('') }],
    ['Jo*', { column: 'c', op: 'like', pattern: 'Jo*' }],
    ['*son', { column: 'c', op: 'like', pattern: '*son' }],
    ['*', { column: 'c', op: 'like', pattern: '*' }],
    ['__gt(30)', { column: 'c', op: 'gt', value: value('30', 30) }],
    ['__ge(1.50)', { column: 'c', op: 'ge', value: value('1.50', 1.5) }],
    ['__lt(M)', { column: 'c', op: 'lt', value: value('M') }],
    ['__le(2024-01-01)', { column: 'c', op: 'le', value: value('2024-01-01') }],
    ['__eq(a*b)', { column: 'c', op: 'eq', value: value('a*b') }],
    ['__ne()', { column: 'c', op: 'ne', value: value('') }],
    ['__eq(f(x))', { column: 'c', op: 'eq', value: value('f(x)') }],
    ['__init__', { column: 'c', op: 'eq', value: value('__init__') }],
    ['1e3', { column: 'c', op: 'eq', value: value('1e3') }],
    ['+5', { column: 'c', op: 'eq', value: value('+5') }],
    ['__ieq(Oslo)', { column: 'c', op: 'ieq', value: value('Oslo') }],
    ['__ieq(31)', { column: 'c', op: 'ieq', value: value('31') }],
    ['__ieq(a*b)', { column: 'c', op: 'ieq', value: value('a*b') }],
    ['__ieq(f(x))', { column: 'c', op: 'ieq', value: value('f(x)') }],
    ['__ieq(a,b)', { column: 'c', op: 'ieq', value: value('a,b') }],
    ['__ilike(jo*)', { column: 'c', op: 'ilike', pattern: 'jo*' }],
    ['__ilike(STRASSE)', { column: 'c', op: 'ilike', pattern: 'STRASSE' }],
    ['__ilike(*)', { column: 'c', op: 'ilike', pattern: '*' }],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseFilter('c', raw), expected, `parseFilter(${JSON.stringify(raw)})`);
  }
});

test('__in and __nin read comma-separated values, each typed as in col=v', () => {
  const v = value;
  const table: [string, Filter][] = [
    ['__in(a,b,c)', list('in', v('a'), v('b'), v('c'))],
    ['__in(Ann)', list('in', v('Ann'))],
    ['__in(31,031,31.0,1.50)', list('in', v('31', 31), v('031'), v('31.0', 31), v('1.50', 1.5))],
    [
      '__in(1e+21,-2.5,0.1,1e21)',
      list('in', v('1e+21', 1e21), v('-2.5', -2.5), v('0.1', 0.1), v('1e21')),
    ],
    ['__in(a*,*)', list('in', v('a*'), v('*'))],
    ['__in("Smith, J",Ann)', list('in', v('Smith, J'), v('Ann'))],
    ['__in("say ""hi""")', list('in', v('say "hi"'))],
    ['__in("""")', list('in', v('"'))],
    ['__in(x,"a""")', list('in', v('x'), v('a"'))],
    ['__in("f(x)","a)")', list('in', v('f(x)'), v('a)'))],
    ['__in("31")', list('in', v('31', 31))],
    ['__in(a, b)', list('in', v('a'), v(' b'))],
    ['__in(,a)', list('in', v(''), v('a'))],
    ['__in(a,)', list('in', v('a'), v(''))],
    ['__in(,)', list('in', v(''), v(''))],
    ['__in("")', list('in', v(''))],
    ['__in("",x)', list('in', v(''), v('x'))],
    ['__in(a,a)', list('in', v('a'), v('a'))],
    ['__in(a|b)', list('in', v('a|b'))],
    ['__in(Zoë,😀)', list('in', v('Zoë'), v('😀'))],
    ['__in(true)', list('in', v('true'))],
    ['__nin(a,b)', list('nin', v('a'), v('b'))],
    ['__nin(,x)', list('nin', v(''), v('x'))],
    ['__nin("a,b")', list('nin', v('a,b'))],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseFilter('c', raw), expected, `parseFilter(${JSON.stringify(raw)})`);
  }
});

test('malformed operator filters are refused with what was expected, and where', () => {
  const table: [string, RegExp, number?][] = [
    ['__gte(3)', /Unknown operator "__gte".*expected one of __eq\(\.\.\.\), __ne/],
    ['__(3)', /Unknown operator "__"/],
    ['__GT(3)', /Unknown operator "__GT"/],
    ['__like(a*)', /Unknown operator "__like".*__ilike\(\.\.\.\)/],
    ['__IN(a)', /Unknown operator "__IN"/],
    ['__gt(30', /missing its closing parenthesis: expected __gt\(<value>\)/],
    ['__in(a,b', /missing its closing parenthesis: expected __in\(<value>,<value>\.\.\.\)/],
    ['__gt()', /has no value to compare with: expected __gt\(<value>\)/],
    ['__lt()', /no value/],
    ['__ieq()', /no value to compare with: expected __ieq\(<value>\).*write age=\./],
    ['__ilike()', /no value to compare with: expected __ilike\(<value>\)/],
    ['__in()', /lists no values: expected __in\(<value>,<value>\.\.\.\).*write __in\(""\)/, 5],
    ['__nin()', /lists no values: expected __nin\(<value>,<value>/, 6],
    [
      '__in(f(x))',
      /a parenthesis in an unquoted value, where it reads '\(x\)\)'\. .*in double quotes/,
      6,
    ],
    ['__in(a)b)', /a parenthesis in an unquoted value, where it reads '\)b\)'/, 6],
    ['__in(a,b"c)', /a double quote in an unquoted value, where it reads '"c\)'/, 8],
    ['__in("a)', /a quoted value with no closing quote, where it reads '"a\)'/, 5],
    ['__in(x,"a"")', /no closing quote, where it reads '"a""\)'/, 7],
    ['__in("a"b)', /goes on after a closing quote.*, where it reads 'b\)'/, 8],
    ['__in("a" ,b)', /goes on after a closing quote.*, where it reads ' ,b\)'/, 8],
    ['__nin(a,"b"")', /no closing quote, where it reads '"b""\)'/, 8],
    ['__in(\u0000)', /NUL character or a lone surrogate/],
    ['__ieq(\ud800)', /NUL character or a lone surrogate/],
  ];
  for (const [raw, message, position] of table) {
    assert.throws(
      () => parseFilter('age', raw),
      (error: unknown) =>
        error instanceof Problem &&
        error.code === 'invalid-filter' &&
        message.test(error.message) &&
        error.extensions.column === 'age' &&
        error.extensions.position === position,
      `parseFilter(${JSON.stringify(raw)})`,
    );
  }
});
