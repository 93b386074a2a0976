import { isStorableText } from '../cells/cell.ts';
import { excerpt } from '../errors/excerpt.ts';
import { numberFromText } from '../cells/number-text.ts';
import { Problem } from '../errors/problem.ts';
import { parseValueList } from './parse-value-list.ts';
import { shown } from './shown-filter.ts';

/** Operators of `<column>=__<op>(<value>)`, listed once; the types below are derived from it. */
export const operators = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'nin', 'ieq', 'ilike'] as const;
export type Operator = (typeof operators)[number];
/** Operators taking a comma-separated list of values. */
export type ListOperator = Extract<Operator, 'in' | 'nin'>;
/** Wildcard matching: `like` is written as bare text holding `*`, `ilike` as an operator. */
export type PatternOperator = 'like' | Extract<Operator, 'ilike'>;
/** Operators taking one value. */
export type ValueOperator = Exclude<Operator, ListOperator | PatternOperator>;

/** A filter value as typed in the URL: its text, and the number it stands for, if it is one. */
export interface FilterValue {
  text: string;
  number: number | null;
}

export type Filter =
  | { column: string; op: ValueOperator; value: FilterValue }
  | { column: string; op: PatternOperator; pattern: string }
  | { column: string; op: ListOperator; values: FilterValue[] };

const operatorForm = /^__([A-Za-z]*)\(/;
const decimal = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** An operator's value is a number whenever it is written as one: `__gt(1.50)` is 1.5, `__eq(1e21)` 1e21. */
function operatorValue(text: string): FilterValue {
  return { text, number: decimal.test(text) ? Number(text) : null };
}

/**
 * A plain `col=text` (and each `__in` value) matches text cells showing exactly that text, and
 * number cells equal to the number it stands for: one a file would be read as (`1.50` is 1.5,
 * as people write amounts; `031` is no number), or one shown as exactly that text (`1e+21`).
 */
export function equalityValue(text: string): FilterValue {
  const shown = text === '' ? Number.NaN : Number(text);
  const number =
    numberFromText(text) ?? (Number.isFinite(shown) && String(shown) === text ? shown : null);
  return { text, number };
}

/**
 * Parses one filter parameter. `Ann` is equality, `Jo*` a wildcard pattern (`*` is any run of
 * characters), `__gt(30)` an operator. Text that starts like an operator (`__name(`) must be one;
 * to match such text literally, write `__eq(...)`.
 */
export function parseFilter(column: string, raw: string): Filter {
  if (!isStorableText(raw) || !isStorableText(column)) {
    throw new Problem(
      'invalid-filter',
      `Filter ${excerpt(column)} holds a NUL character or a lone surrogate, which no cell can hold.`,
      { column: excerpt(column) },
    );
  }
  const form = operatorForm.exec(raw);
  if (form === null) {
    if (raw.includes('*')) return { column, op: 'like', pattern: raw };
    return { column, op: 'eq', value: equalityValue(raw) };
  }
  const name = form[1] ?? '';
  if (!isOperator(name)) {
    throw new Problem(
      'invalid-filter',
      `Unknown operator "__${excerpt(name)}" in filter ${shown(column, raw)}: expected one of ${operators
        .map((op) => `__${op}(...)`)
        .join(', ')}.`,
      { column: excerpt(column), parameter: excerpt(raw) },
    );
  }
  const list = name === 'in' || name === 'nin';
  if (!raw.endsWith(')')) {
    throw new Problem(
      'invalid-filter',
      `Filter ${shown(column, raw)} is missing its closing parenthesis: expected __${name}(${list ? '<value>,<value>...' : '<value>'}).`,
      { column: excerpt(column), parameter: excerpt(raw) },
    );
  }
  const text = raw.slice(form[0].length, -1);
  if (list) {
    const values = parseValueList(text, column, raw, form[0].length);
    return { column, op: name, values: values.map(equalityValue) };
  }
  if (text === '' && name !== 'eq' && name !== 'ne') {
    throw new Problem(
      'invalid-filter',
      `Filter ${shown(column, raw)} has no value to compare with: expected __${name}(<value>), e.g. __${name}(${name === 'ieq' || name === 'ilike' ? 'oslo' : '30'}).${name === 'ieq' ? ` To match empty cells, write ${excerpt(column)}=.` : ''}`,
      { column: excerpt(column), parameter: excerpt(raw) },
    );
  }
  if (name === 'ilike') return { column, op: name, pattern: text };
  // Case-insensitive equality compares shown text only, so its value never stands for a number.
  if (name === 'ieq') return { column, op: name, value: { text, number: null } };
  return { column, op: name, value: operatorValue(text) };
}

function isOperator(name: string): name is Operator {
  return (operators as readonly string[]).includes(name);
}
