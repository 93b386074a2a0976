import { isStorableText } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';

/** The functions of `_agg`, listed once; the type below is derived from it. */
export const aggregateFunctions = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max'] as const;
export type AggregateFunction = (typeof aggregateFunctions)[number];

/**
 * One aggregate of `_agg`: its function, the column it reads (null for `count()`, which counts
 * rows) and its expression exactly as written, which names it in the answer and in `_sort`.
 */
export interface Aggregate {
  fn: AggregateFunction;
  column: string | null;
  expression: string;
}

/** A piece of a comma-separated list: as written, with its escapes undone, and where it began. */
export interface ListItem {
  raw: string;
  text: string;
  at: number;
}

const escapable = new Set([',', '(', ')', '\\']);
/**
 * Bounds that keep one statement within what both databases take (PostgreSQL answers at most
 * 1,664 columns), far above what a question of a sheet asks.
 */
export const mostGroupColumns = 32;
export const mostAggregates = 64;
const aggExample = '_agg=count(),sum(price)';

/**
 * Splits a list on the commas that are not escaped: `\,` is a literal comma, `\(` and `\)`
 * literal parentheses and `\\` a backslash, as column names holding them are written (the
 * escapes of `_or`, with `,` and parentheses in place of `|` and `=`).
 */
export function splitList(raw: string, parameter: string): ListItem[] {
  const items: ListItem[] = [];
  let start = 0;
  let text = '';
  for (let i = 0; i <= raw.length; i++) {
    const c = raw[i];
    if (c === undefined || c === ',') {
      items.push({ raw: raw.slice(start, i), text, at: start });
      start = i + 1;
      text = '';
      continue;
    }
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === undefined || !escapable.has(next)) {
        throw new Problem(
          'invalid-parameter',
          `${parameter}=${raw} has a backslash followed by ${next === undefined ? 'nothing' : `"${next}"`} at position ${i}: write \\, for a comma, \\( and \\) for parentheses and \\\\ for a backslash in a column name.`,
          { parameter, position: i },
        );
      }
      text += next;
      i++;
      continue;
    }
    text += c;
  }
  return items;
}

/** `_group=<col>[,<col>...]`: the columns rows are grouped by, each once. */
export function parseGroup(raw: string): string[] {
  const columns = splitList(raw, '_group');
  if (columns.length > mostGroupColumns) {
    throw new Problem(
      'invalid-parameter',
      `_group names ${columns.length} columns; at most ${mostGroupColumns} are taken.`,
      { parameter: '_group' },
    );
  }
  const seen = new Set<string>();
  for (const column of columns) {
    if (column.text === '') {
      throw new Problem(
        'invalid-parameter',
        `_group=${raw} names no column at position ${column.at}: expected column names separated by commas, e.g. _group=city,year.`,
        { parameter: '_group', position: column.at },
      );
    }
    if (seen.has(column.text)) {
      throw new Problem('invalid-parameter', `_group=${raw} names "${column.text}" twice.`, {
        parameter: '_group',
        position: column.at,
      });
    }
    seen.add(column.text);
  }
  return columns.map((column) => column.text);
}

/** `_agg=<fn>(<col>)[,...]`: the aggregates each group answers, each expression once. */
export function parseAggregates(raw: string): Aggregate[] {
  const items = splitList(raw, '_agg');
  if (items.length > mostAggregates) {
    throw new Problem(
      'invalid-parameter',
      `_agg asks for ${items.length} aggregates; at most ${mostAggregates} are taken.`,
      { parameter: '_agg' },
    );
  }
  const aggregates = items.map((item) => parseAggregate(raw, item));
  const repeated = aggregates.find(
    (aggregate, i) => aggregates.findIndex((a) => a.expression === aggregate.expression) !== i,
  );
  if (repeated !== undefined) {
    throw new Problem('invalid-parameter', `_agg=${raw} asks for ${repeated.expression} twice.`, {
      parameter: '_agg',
    });
  }
  return aggregates;
}

function parseAggregate(raw: string, item: ListItem): Aggregate {
  const fail = (position: number, what: string) =>
    new Problem(
      'invalid-parameter',
      `_agg=${raw} ${what} at position ${position}. Expected <function>(<column>) separated by commas, e.g. ${aggExample}, with the functions ${aggregateFunctions.map((fn) => `${fn}(${fn === 'count' ? '[column]' : 'column'})`).join(', ')}.`,
      { parameter: '_agg', position },
    );
  const written = item.raw;
  if (written === '') throw fail(item.at, 'has an empty aggregate');
  const open = unescapedIndex(written, '(');
  if (open < 0) throw fail(item.at, `has "${written}", which has no "("`);
  const name = written.slice(0, open);
  if (!isFunction(name)) {
    throw new Problem(
      'invalid-parameter',
      `_agg=${raw} names the function "${name}" at position ${item.at}, which does not exist: the functions are ${aggregateFunctions.join(', ')}.`,
      { parameter: '_agg', position: item.at, functions: [...aggregateFunctions] },
    );
  }
  const nested = unescapedIndex(written, '(', open + 1);
  if (nested >= 0) {
    throw fail(item.at + nested, `has "${written}", with a "(" in its column: write \\( for one`);
  }
  const close = unescapedIndex(written, ')', open + 1);
  if (close < 0) throw fail(item.at + written.length, `has "${written}", which has no closing ")"`);
  if (close !== written.length - 1) {
    throw fail(item.at + close + 1, `has "${written}", which goes on after its ")"`);
  }
  const column = unescape(written.slice(open + 1, close));
  if (column === '' && name !== 'count') {
    throw fail(item.at + open + 1, `has ${name}() with no column: ${name} reads one column`);
  }
  if (!isStorableText(column)) {
    throw fail(item.at + open + 1, 'names a column with a NUL character or a lone surrogate');
  }
  return { fn: name, column: column === '' ? null : column, expression: written };
}

/** Where `c` first stands unescaped in `text`, from `from`; -1 if nowhere. */
function unescapedIndex(text: string, c: string, from = 0): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (i >= from && text[i] === c) return i;
  }
  return -1;
}

/** The text of a piece checked by `splitList`: each `\x` is `x`. */
function unescape(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

function isFunction(name: string): name is AggregateFunction {
  return (aggregateFunctions as readonly string[]).includes(name);
}
