import { Problem } from '../errors/problem.ts';
import { parseFilter, type Filter } from './parse-filter.ts';
import { parseOr } from './parse-or.ts';

export interface SortKey {
  column: string;
  descending: boolean;
}

/** What a row request's query string asks for, before it is checked against a sheet. */
export interface RowQuery {
  ids: number[] | null;
  /** Filters that must all hold. */
  filters: Filter[];
  /** One entry per `_or` parameter: at least one of its filters must hold. */
  any: Filter[][];
  sort: SortKey[];
  limit: number | null;
  offset: number;
  /** `_with_id=true`: each row read also says its position, for writing back to it. */
  withIds: boolean;
  /** `_fields`: the columns each row read carries, in this order; null for all of them. */
  fields: string[] | null;
  /** `_upsert`, on POST: the column whose value finds the rows a body row updates. */
  upsert: string | null;
}

export type QueryString = Record<string, string | string[] | undefined>;

const reserved = [
  '_fields',
  '_id',
  '_limit',
  '_offset',
  '_or',
  '_sort',
  '_upsert',
  '_with_id',
] as const;
const nonNegativeInteger = /^(0|[1-9][0-9]*)$/;

/**
 * Splits a query string into `_id`, filters and paging. Parameters starting with `_` are reserved:
 * an unknown one is an error rather than a filter on a column named like it.
 */
export function parseRowQuery(query: QueryString): RowQuery {
  const result: RowQuery = {
    ids: null,
    filters: [],
    any: [],
    sort: [],
    limit: null,
    offset: 0,
    withIds: false,
    fields: null,
    upsert: null,
  };
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
      case '_limit':
        result.limit = parseCount(name, value);
        break;
      case '_offset':
        result.offset = parseCount(name, value);
        break;
      case '_sort':
        result.sort = parseSort(value);
        break;
      case '_fields':
        result.fields = parseFields(value);
        break;
      case '_upsert':
        if (value === '') {
          throw new Problem('invalid-parameter', '_upsert names the column rows are matched by.', {
            parameter: name,
          });
        }
        result.upsert = value;
        break;
      case '_with_id':
        if (value !== 'true' && value !== 'false') {
          throw new Problem('invalid-parameter', `_with_id takes true or false; got "${value}".`, {
            parameter: name,
          });
        }
        result.withIds = value === 'true';
        break;
      default:
        throw new Problem(
          'invalid-parameter',
          `Unknown parameter "${name}": names starting with "_" are reserved; supported are ${reserved.join(', ')}.`,
          { parameter: name },
        );
    }
  }
  if (result.ids !== null && (result.filters.length > 0 || result.any.length > 0)) {
    throw new Problem(
      'invalid-parameter',
      'Choose rows either by _id or by filters (_or included), not both in one request.',
      { parameter: '_id' },
    );
  }
  return result;
}

function single(name: string, values: string[]): string {
  if (values.length !== 1) {
    throw new Problem('invalid-parameter', `Parameter ${name} may appear only once.`, {
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
        `_id must be a non-negative integer or a comma-separated list of them (row 0 is the first row under the header); got "${value}".`,
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
      `${name} must be a non-negative integer; got "${value}".`,
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
      `_fields takes column names separated by commas, each once, e.g. _fields=name,email; got "${value}", which ${what}.`,
      { parameter: '_fields' },
    );
  if (fields.includes('')) throw fail('has an empty name');
  const repeated = fields.find((field, i) => fields.indexOf(field) !== i);
  if (repeated !== undefined) throw fail(`names "${repeated}" twice`);
  return fields;
}

function parseSort(value: string): SortKey[] {
  return value.split(',').map((part) => {
    const descending = part.startsWith('-');
    const column = descending ? part.slice(1) : part;
    if (column === '') {
      throw new Problem(
        'invalid-parameter',
        `_sort takes column names separated by commas, each optionally preceded by "-" for descending order; got "${value}".`,
        { parameter: '_sort' },
      );
    }
    return { column, descending };
  });
}
