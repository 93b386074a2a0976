/**
 * The filter bar's model and the query string it builds, in the row API's own grammar
 * (README, "Filters"). Pure: the console shows the very string it sends.
 */

/** How a filter compares, each with the label the filter bar shows; listed once. */
export const filterOperators = [
  { op: 'is', label: 'is', takesValue: true },
  { op: 'matches', label: 'matches (* is any text)', takesValue: true },
  { op: 'ne', label: 'is not', takesValue: true },
  { op: 'gt', label: '>', takesValue: true },
  { op: 'ge', label: '≥', takesValue: true },
  { op: 'lt', label: '<', takesValue: true },
  { op: 'le', label: '≤', takesValue: true },
  { op: 'empty', label: 'is empty', takesValue: false },
  { op: 'not-empty', label: 'is not empty', takesValue: false },
] as const;

export type FilterOperator = (typeof filterOperators)[number]['op'];

export interface Filter {
  column: string;
  op: FilterOperator;
  value: string;
}

export interface SortKey {
  column: string;
  descending: boolean;
}

export interface RowQuery {
  filters: Filter[];
  sort: SortKey[];
  limit?: number;
  offset?: number;
}

/** Text the API would read as an operator or a wildcard, so "is" must spell it `__eq(...)`. */
const specialText = /^__[A-Za-z]*\(|\*/;

/** The value of one filter parameter, as the API reads it. */
export function filterValue(filter: Filter): string {
  switch (filter.op) {
    case 'is':
      return specialText.test(filter.value) ? `__eq(${filter.value})` : filter.value;
    case 'matches':
      return filter.value;
    case 'empty':
      return '';
    case 'not-empty':
      return '__ne()';
    default:
      return `__${filter.op}(${filter.value})`;
  }
}

/** Keeps the characters of the filter grammar readable; everything else is percent-encoded. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/%2C/g, ',');
}

/** `city=Lisbon&age=__gt(40)&_sort=-age&_limit=25`, without the leading `?`. */
export function rowQueryString(query: RowQuery): string {
  const parts = query.filters
    .filter((filter) => filter.column !== '')
    .map((filter) => `${encode(filter.column)}=${encode(filterValue(filter))}`);
  if (query.sort.length > 0) {
    const keys = query.sort.map((key) => `${key.descending ? '-' : ''}${key.column}`);
    parts.push(`_sort=${encode(keys.join(','))}`);
  }
  if (query.limit !== undefined) parts.push(`_limit=${query.limit}`);
  if (query.offset !== undefined && query.offset > 0) parts.push(`_offset=${query.offset}`);
  return parts.join('&');
}

/** Clicking a column's header: ascending, then descending, then unsorted. */
export function nextSort(sort: SortKey[], column: string): SortKey[] {
  const current = sort.find((key) => key.column === column);
  if (current === undefined) return [{ column, descending: false }];
  if (!current.descending) return [{ column, descending: true }];
  return [];
}
