import { isStorableText } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { excerpt } from '../errors/excerpt.ts';
import { parseFilter, type Filter } from './parse-filter.ts';
import { parseOr } from './parse-or.ts';
import { parseAggregates, parseGroup, splitList, type Aggregate } from './parse-aggregate.ts';
import { parseKeyList } from './row-key.ts';

export interface SortKey {
  column: string;
  descending: boolean;
  /** For a sort of groups: the key as written (escapes kept), as an aggregate is named. */
  written?: string;
}

/** What a row request's query string asks for, before it is checked against a sheet. */
export interface RowQuery {
  ids: number[] | null;
  /** `_key`: the rows chosen by their keys, which stay with them while positions shift. */
  keys: string[] | null;
  /** Filters that must all hold. */
  filters: Filter[];
  /** One entry per `_or` parameter: at least one of its filters must hold. */
  any: Filter[][];
  sort: SortKey[];
  limit: number | null;
  offset: number;
  /** `_with_id=true`: each row read also says its position, for writing back to it. */
  withIds: boolean;
  /** `_with_key=true`: each row read also says its key. */
  withKeys: boolean;
  /** `_fields`: the columns each row read carries, in this order; null for all of them. */
  fields: string[] | null;
  /** `_upsert`, on POST: the column whose value finds the rows a body row updates. */
  upsert: string | null;
  /** `_group`: the columns rows are grouped by; null when the request reads rows. */
  group: string[] | null;
  /** `_agg`: what each group answers; null when not asked. */
  aggregates: Aggregate[] | null;
  /** `_q`: text some cell of each row must contain, case folded; null for none. */
  search: string | null;
}

export type QueryString = Record<string, string | string[] | undefined>;

const reserved = [
  '_agg',
  '_fields',
  '_group',
  '_id',
  '_key',
  '_limit',
  '_offset',
  '_or',
  '_q',
  '_sort',
  '_upsert',
  '_with_id',
  '_with_key',
] as const;
const nonNegativeInteger = /^(0|[1-9][0-9]*)$/;

/**
 * Splits a query string into `_id`, filters and paging. Parameters starting with `_` are reserved:
 * an unknown one is an error rather than a filter on a column named like it.
 */
export function parseRowQuery(query: QueryString): RowQuery {
  const result: RowQuery = {
    ids: null,
    keys: null,
    filters: [],
    any: [],
    sort: [],
    limit: null,
    offset: 0,
    withIds: false,
    withKeys: false,
    fields: null,
    upsert: null,
    group: null,
    aggregates: null,
    search: null,
  };
  let sort: string | null = null;
  for (const [name, raw] of Object.entries(query)) {
    const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    if (!name.startsWith('_')) {
      for (const value of values) result.filters.push(parseFilter(name, value));
      continue;
    }
    if (name === '_or') {
      for (const value of values) result.any.push(parseOr(value));
      continue;
    }
    const value = single(name, values);
    switch (name) {
      case '_id':
        result.ids = parseIds(value);
        break;
      case '_key':
        result.keys = parseKeyList(value);
        break;
      case '_limit':
        result.limit = parseCount(name, value);
        break;
      case '_offset':
        result.offset = parseCount(name, value);
        break;
      case '_sort':
        sort = value;
        break;
      case '_group':
        result.group = parseGroup(value);
        break;
      case '_agg':
        result.aggregates = parseAggregates(value);
        break;
      case '_q':
        if (!isStorableText(value)) {
          throw new Problem(
            'invalid-parameter',
            '_q holds a NUL character or a lone surrogate, which no cell can hold.',
            { parameter: name },
          );
        }
        // An empty search asks for nothing: every row, as a search box left empty shows.
        result.search = value === '' ? null : value;
        break;
      case '_fields':
        result.fields = parseFields(value);
        break;
      case '_upsert':
        if (value === '') {
          throw new Problem('invalid-parameter', '_upsert names the column rows are matched by.', {
            parameter: excerpt(name),
          });
        }
        result.upsert = value;
        break;
      case '_with_id':
        result.withIds = parseFlag(name, value);
        break;
      case '_with_key':
        result.withKeys = parseFlag(name, value);
        break;
      default:
        throw new Problem(
          'invalid-parameter',
          `Unknown parameter "${excerpt(name)}": names starting with "_" are reserved; supported are ${reserved.join(', ')}.`,
          { parameter: excerpt(name) },
        );
    }
  }
  const grouped = result.group !== null || result.aggregates !== null;
  if (sort !== null) result.sort = grouped ? parseGroupSort(sort) : parseSort(sort);
  const rowParameter =
    result.fields !== null
      ? '_fields'
      : result.withIds
        ? '_with_id'
        : result.withKeys
          ? '_with_key'
          : null;
  if (grouped && rowParameter !== null) {
    throw new Problem(
      'invalid-parameter',
      `${rowParameter} does not apply to _group and _agg: their answer has a key for each group column and each aggregate.`,
      { parameter: rowParameter },
    );
  }
  if (
    result.keys !== null &&
    (result.ids !== null ||
      result.filters.length > 0 ||
      result.any.length > 0 ||
      result.search !== null)
  ) {
    throw new Problem(
      'invalid-parameter',
      `Choose rows by _key alone: not with ${result.ids !== null ? '_id' : 'filters (_or and _q included)'} in the same request.`,
      { parameter: '_key' },
    );
  }
  if (
    result.ids !== null &&
    (result.filters.length > 0 || result.any.length > 0 || result.search !== null)
  ) {
    throw new Problem(
      'invalid-parameter',
      'Choose rows either by _id or by filters (_or and _q included), not both in one request.',
      { parameter: '_id' },
    );
  }
  return result;
}

function parseFlag(name: string, value: string): boolean {
  if (value !== 'true' && value !== 'false') {
    throw new Problem(
      'invalid-parameter',
      `${name} takes true or false; got "${excerpt(value)}".`,
      {
        parameter: excerpt(name),
      },
    );
  }
  return value === 'true';
}

function single(name: string, values: string[]): string {
  if (values.length !== 1) {
    throw new Problem('invalid-parameter', `Parameter ${excerpt(name)} may appear only once.`, {
      parameter: name,
    });
  }
  return values[0] ?? '';
}

function parseIds(value: string): number[] {
  const ids = value.split(',').map((part) => {
    const id = Number(part);
    if (!nonNegativeInteger.test(part) || !Number.isSafeInteger(id)) {
      throw new Problem(
        'invalid-id',
        `_id must be a non-negative integer or a comma-separated list of them (row 0 is the first row under the header); got "${excerpt(value)}".`,
        { parameter: '_id' },
      );
    }
    return id;
  });
  return [...new Set(ids)];
}

function parseCount(name: string, value: string): number {
  const count = Number(value);
  if (!nonNegativeInteger.test(value) || !Number.isSafeInteger(count)) {
    throw new Problem(
      'invalid-parameter',
      `${name} must be a non-negative integer; got "${excerpt(value)}".`,
      {
        parameter: name,
      },
    );
  }
  return count;
}

function parseFields(value: string): string[] {
  const fields = value.split(',');
  const fail = (what: string) =>
    new Problem(
      'invalid-parameter',
      `_fields takes column names separated by commas, each once, e.g. _fields=name,email; got "${excerpt(value)}", which ${what}.`,
      { parameter: '_fields' },
    );
  if (fields.includes('')) throw fail('has an empty name');
  const repeated = fields.find((field, i) => fields.indexOf(field) !== i);
  if (repeated !== undefined) throw fail(`names "${repeated}" twice`);
  return fields;
}

/**
 * `_sort` of groups: group columns and aggregate expressions, escaped as in `_group` and `_agg`
 * (`_sort=-sum(price),city`), each optionally preceded by "-".
 */
function parseGroupSort(value: string): SortKey[] {
  return splitList(value, '_sort').map((item) => {
    const descending = item.raw.startsWith('-');
    const written = descending ? item.raw.slice(1) : item.raw;
    if (written === '') {
      throw new Problem(
        'invalid-parameter',
        `_sort takes group columns and aggregate expressions separated by commas, each optionally preceded by "-" for descending order, e.g. _sort=-sum(price); got "${value}".`,
        { parameter: '_sort', position: item.at },
      );
    }
    return { column: descending ? item.text.slice(1) : item.text, descending, written };
  });
}

function parseSort(value: string): SortKey[] {
  return value.split(',').map((part) => {
    const descending = part.startsWith('-');
    const column = descending ? part.slice(1) : part;
    if (column === '') {
      throw new Problem(
        'invalid-parameter',
        `_sort takes column names separated by commas, each optionally preceded by "-" for descending order; got "${excerpt(value)}".`,
        { parameter: '_sort' },
      );
    }
    return { column, descending };
  });
}
