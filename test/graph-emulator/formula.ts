/**
 * Works out a formula's value: numbers, strings, TRUE/FALSE, cell references on the same sheet,
 * + - * / ^ & and comparisons, parentheses, and SUM/MIN/MAX/AVERAGE/COUNT over ranges. Anything
 * else is `#NAME?`, as Excel answers an unknown name. Enough for tests, not a calculation engine.
 */
import { columnIndex } from './a1.ts';
import { CellError, type Scalar } from './cell.ts';

/** The value of the cell at a 0-based row and column. */
export type CellReader = (row: number, column: number) => Scalar;

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|"((?:[^"]|"")*)"|(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)|([A-Za-z_][A-Za-z0-9_.]*)|(<=|>=|<>|[-+*/^&=<>(),]))/y;

type Token = { kind: 'number' | 'string' | 'ref' | 'name' | 'op'; text: string };

function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) return undefined;
    const [, number, string, ref, name, op] = match;
    if (number !== undefined) tokens.push({ kind: 'number', text: number });
    else if (string !== undefined)
      tokens.push({ kind: 'string', text: string.replaceAll('""', '"') });
    else if (ref !== undefined) tokens.push({ kind: 'ref', text: ref.replaceAll('$', '') });
    else if (name !== undefined) tokens.push({ kind: 'name', text: name.toUpperCase() });
    else tokens.push({ kind: 'op', text: op ?? '' });
  }
  return tokens;
}

type Value = Scalar | Scalar[];

const BINARY: Record<string, number> = {
  '=': 1,
  '<>': 1,
  '<': 1,
  '>': 1,
  '<=': 1,
  '>=': 1,
  '&': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
  '^': 5,
};

export function evaluate(formula: string, read: CellReader): Scalar {
  const tokens = tokenize(formula.replace(/^=/, ''));
  if (!tokens) return new CellError('#NAME?');
  let at = 0;
  const peek = () => tokens[at];
  const fail = (code: string): never => {
    throw new CellError(code);
  };

  const primary = (): Value => {
    const token = tokens[at++] ?? fail('#VALUE!');
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'string') return token.text;
    if (token.kind === 'ref') return reference(token.text, read);
    if (token.kind === 'op' && token.text === '(') {
      const inner = expression(0);
      if (tokens[at++]?.text !== ')') fail('#VALUE!');
      return inner;
    }
    if (token.kind === 'op' && (token.text === '-' || token.text === '+')) {
      const operand = number(single(primary()));
      return token.text === '-' ? -operand : operand;
    }
    if (token.kind === 'name' && (token.text === 'TRUE' || token.text === 'FALSE')) {
      return token.text === 'TRUE';
    }
    if (token.kind === 'name' && peek()?.text === '(') return call(token.text);
    return fail('#NAME?');
  };

  const call = (name: string): Value => {
    at++;
    const args: Scalar[] = [];
    while (peek() && peek()?.text !== ')') {
      const arg = expression(0);
      args.push(...(Array.isArray(arg) ? arg : [arg]));
      if (peek()?.text === ',') at++;
    }
    at++;
    const error = args.find((arg) => arg instanceof CellError);
    if (error) throw error;
    const numbers = args.filter((arg): arg is number => typeof arg === 'number');
    const sum = numbers.reduce((total, n) => total + n, 0);
    if (name === 'SUM') return sum;
    if (name === 'COUNT') return numbers.length;
    if (name === 'MIN') return numbers.length ? Math.min(...numbers) : 0;
    if (name === 'MAX') return numbers.length ? Math.max(...numbers) : 0;
    if (name === 'AVERAGE') return numbers.length ? sum / numbers.length : fail('#DIV/0!');
    return fail('#NAME?');
  };

  const expression = (minimum: number): Value => {
    let left = primary();
    for (let op = peek(); op?.kind === 'op' && (BINARY[op.text] ?? 0) > minimum; op = peek()) {
      at++;
      const precedence = BINARY[op.text] ?? 0;
      const right = expression(op.text === '^' ? precedence - 1 : precedence);
      left = apply(op.text, single(left), single(right));
    }
    return left;
  };

  try {
    const result = single(expression(0));
    return at === tokens.length ? result : new CellError('#VALUE!');
  } catch (error) {
    if (error instanceof CellError) return error;
    throw error;
  }
}

function reference(text: string, read: CellReader): Value {
  const [from = '', to = from] = text.split(':');
  const cell = (ref: string) => {
    const [, letters = '', digits = ''] = /^([A-Za-z]+)(\d+)$/.exec(ref) ?? [];
    return { row: Number(digits) - 1, column: columnIndex(letters) };
  };
  const a = cell(from);
  const b = cell(to);
  if (from === to) return read(a.row, a.column);
  const values: Scalar[] = [];
  for (let r = Math.min(a.row, b.row); r <= Math.max(a.row, b.row); r++) {
    for (let c = Math.min(a.column, b.column); c <= Math.max(a.column, b.column); c++) {
      values.push(read(r, c));
    }
  }
  return values;
}

const single = (value: Value): Scalar => (Array.isArray(value) ? (value[0] ?? '') : value);

function number(value: Scalar): number {
  if (value instanceof CellError) throw value;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === '') return 0;
  const parsed = Number(value);
  if (Number.isNaN(parsed)) throw new CellError('#VALUE!');
  return parsed;
}

function apply(op: string, left: Scalar, right: Scalar): Scalar {
  if (left instanceof CellError) throw left;
  if (right instanceof CellError) throw right;
  if (op === '&') return `${String(left)}${String(right)}`;
  if (['=', '<>', '<', '>', '<=', '>='].includes(op)) return compare(op, left, right);
  const [a, b] = [number(left), number(right)];
  if (op === '+') return a + b;
  if (op === '-') return a - b;
  if (op === '*') return a * b;
  if (op === '^') return a ** b;
  if (b === 0) throw new CellError('#DIV/0!');
  return a / b;
}

function compare(op: string, left: Scalar, right: Scalar): boolean {
  const a = typeof left === 'string' ? left.toLowerCase() : left;
  const b = typeof right === 'string' ? right.toLowerCase() : right;
  if (op === '=') return a === b;
  if (op === '<>') return a !== b;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return op === '<' ? order < 0 : op === '>' ? order > 0 : op === '<=' ? order <= 0 : order >= 0;
}
