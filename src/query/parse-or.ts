import { Problem } from '../errors/problem.ts';
import { excerpt } from '../errors/excerpt.ts';
import { parseFilter, type Filter } from './parse-filter.ts';

const example = '_or=city=Oslo|age=__gt(40)';
const escapable = new Set(['|', '\\', '=']);

/** One alternative as written, its escapes undone; `valueAt[i]` is where value[i] was in `_or`. */
interface Alternative {
  text: string;
  column: string;
  value: string;
  valueAt: number[];
  at: number;
  end: number;
}

/**
 * Parses one `_or` parameter: filters separated by `|`, each written as a top-level one is,
 * `<column>=<value>`. `\|` is a literal `|`, `\\` a backslash and `\=` an `=` (needed only in a
 * column name: the first plain `=` ends the name). Escapes are undone before a filter is read,
 * so a `|` needs its backslash inside the quotes of an `__in` list too.
 */
export function parseOr(raw: string): Filter[] {
  return splitAlternatives(raw).map((alternative, index) => {
    try {
      return parseFilter(alternative.column, alternative.value);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      const inner = error.extensions.position;
      throw new Problem(
        error.code,
        `In _or=${excerpt(raw)}, alternative "${excerpt(alternative.text)}": ${error.detail}`,
        {
          ...error.extensions,
          parameter: '_or',
          alternative: index,
          ...(typeof inner === 'number'
            ? { position: alternative.valueAt[inner] ?? alternative.end }
            : {}),
        },
      );
    }
  });
}

function splitAlternatives(raw: string): Alternative[] {
  const alternatives: Alternative[] = [];
  let current = start(0);
  let inColumn = true;
  for (let i = 0; i <= raw.length; i++) {
    const c = raw[i];
    if (c === undefined || c === '|') {
      current.end = i;
      current.text = raw.slice(current.at, i);
      alternatives.push(finish(raw, current, inColumn, alternatives.length));
      current = start(i + 1);
      inColumn = true;
      continue;
    }
    const at = i;
    let literal = c;
    if (c === '\\') {
      const next = raw[i + 1];
      if (next === undefined || !escapable.has(next)) {
        throw invalid(
          raw,
          `has a backslash followed by ${next === undefined ? 'nothing' : `"${next}"`}: write \\| for a literal |, \\\\ for a backslash and \\= for an = in a column name`,
          { alternative: alternatives.length, position: i },
        );
      }
      literal = next;
      i++;
    } else if (c === '=' && inColumn) {
      inColumn = false;
      continue;
    }
    if (inColumn) {
      current.column += literal;
    } else {
      current.value += literal;
      current.valueAt.push(at);
    }
  }
  return alternatives;
}

function start(at: number): Alternative {
  return { text: '', column: '', value: '', valueAt: [], at, end: at };
}

function finish(raw: string, alternative: Alternative, inColumn: boolean, index: number) {
  const where = { alternative: index, position: alternative.at };
  if (alternative.text === '') {
    throw invalid(
      raw,
      raw === '' ? 'has no filter' : `has an empty alternative (number ${index + 1})`,
      where,
    );
  }
  if (inColumn) {
    throw invalid(raw, `has an alternative with no "=": "${excerpt(alternative.text)}"`, where);
  }
  if (alternative.column === '') {
    throw invalid(
      raw,
      `has an alternative naming no column: "${excerpt(alternative.text)}"`,
      where,
    );
  }
  if (alternative.column.startsWith('_')) {
    throw invalid(
      raw,
      `has an alternative on "${alternative.column}": names starting with "_" are reserved, and each alternative filters a column`,
      where,
    );
  }
  return alternative;
}

function invalid(raw: string, what: string, where: Record<string, number>): Problem {
  return new Problem(
    'invalid-filter',
    `_or=${excerpt(raw)} ${what}. Expected filters written as <column>=<value> and separated by |, e.g. ${example}.`,
    { parameter: '_or', ...where },
  );
}
