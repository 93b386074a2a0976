import type { Scope } from './api-keys.ts';

type QueryString = Record<string, unknown>;

/**
 * Parameters that never choose rows by their values: `_id` chooses by position and `_key` by
 * identity (a key names a row, not what it holds; a 404 tells only that it is gone), the rest only
 * shape a read (and a write refuses them). Any other parameter, a filter, `_or`, `_q` or
 * `_upsert`, chooses rows by what their cells hold, and so tells a caller what the cells hold:
 * `{"updated": n}` after `PATCH ?name=__ilike(a*)` answers whether some name starts with "a".
 * A name not listed here counts as choosing by value, so a new parameter is guarded by default.
 */
const positional = new Set([
  '_id',
  '_key',
  '_sort',
  '_limit',
  '_offset',
  '_with_id',
  '_with_key',
  '_fields',
]);

/** Whether a request's query chooses rows by the values of their cells. */
export function choosesByValue(query: QueryString): boolean {
  return Object.keys(query).some((name) => !positional.has(name));
}

/**
 * The scopes a row request needs, each of them: reads need `read`; POST `create`, and with
 * `_upsert` also `update` (it changes rows) and `read` (it chooses them by value, and its
 * answer says whether a value exists); PUT and PATCH `update`, DELETE `delete`, and each of
 * them `read` as well when it chooses rows by value rather than by `_id`.
 */
export function requiredScopes(method: string, query: QueryString): Scope[] {
  switch (method) {
    case 'POST':
      return '_upsert' in query ? ['create', 'update', 'read'] : ['create'];
    case 'PUT':
    case 'PATCH':
      return choosesByValue(query) ? ['update', 'read'] : ['update'];
    case 'DELETE':
      return choosesByValue(query) ? ['delete', 'read'] : ['delete'];
    default:
      return ['read'];
  }
}
