import { Problem } from '../errors/problem.ts';
import { excerpt } from '../errors/excerpt.ts';
import { shown } from './shown-filter.ts';

const example = '__in("Smith, J",Ann)';

/**
 * Reads the values of `__in(...)` and `__nin(...)`: separated by commas, and written in double
 * quotes, with `""` for a quote inside, when they hold a comma, a parenthesis or a quote. An
 * empty value, unquoted (`__in(,a)`) or quoted (`__in("")`), stands for an empty cell, as in
 * `col=`; an empty list (`__in()`) is refused. Spaces are part of a value, as in `col=v`.
 * `start` is where `list` begins in `raw`, so that errors can say where in the parameter they are.
 */
export function parseValueList(list: string, column: string, raw: string, start: number): string[] {
  const fail = (at: number, what: string) =>
    new Problem(
      'invalid-filter',
      `Filter ${shown(column, raw)} ${what}, where it reads '${excerpt(raw.slice(start + at))}'. Separate values with commas; write a value holding a comma, a parenthesis or a double quote in double quotes, with "" for a quote inside: ${example}.`,
      { column: excerpt(column), parameter: excerpt(raw), position: start + at },
    );
  if (list === '') {
    throw new Problem(
      'invalid-filter',
      `Filter ${shown(column, raw)} lists no values: expected ${raw.slice(0, start)}<value>,<value>...), e.g. ${example}. To match empty cells, write ${raw.slice(0, start)}"").`,
      { column: excerpt(column), parameter: excerpt(raw), position: start },
    );
  }
  const values: string[] = [];
  let at = 0;
  for (;;) {
    let value = '';
    if (list[at] === '"') {
      const opening = at;
      at++;
      for (;;) {
        if (at >= list.length) throw fail(opening, 'has a quoted value with no closing quote');
        if (list[at] === '"') {
          if (list[at + 1] !== '"') break;
          value += '"';
          at += 2;
        } else {
          value += list[at];
          at++;
        }
      }
      at++;
      if (at < list.length && list[at] !== ',') {
        throw fail(at, 'goes on after a closing quote where a comma or the end was expected');
      }
    } else {
      while (at < list.length && list[at] !== ',') {
        const c = list[at] ?? '';
        if (c === '"' || c === '(' || c === ')') {
          throw fail(
            at,
            `has ${c === '"' ? 'a double quote' : 'a parenthesis'} in an unquoted value`,
          );
        }
        value += c;
        at++;
      }
    }
    values.push(value);
    if (at >= list.length) return values;
    at++; // the comma
  }
}
