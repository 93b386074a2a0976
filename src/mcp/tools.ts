import type { Scope } from '../access/api-keys.ts';

/** A JSON Schema, as MCP's tool list carries it. */
type Schema = Record<string, unknown>;

/** What the agent's arguments mean for the row API; validated against `inputSchema` first. */
export type ToolArguments = Record<string, unknown>;

export interface ToolDefinition {
  name: ToolName;
  description: string;
  /** Scopes a key needs to see and call the tool; the administrator has them all. */
  scopes: readonly Scope[];
  inputSchema: Schema;
  outputSchema: Schema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
}

export const toolNames = [
  'list_sheets',
  'describe_sheet',
  'query_rows',
  'aggregate_rows',
  'add_rows',
  'update_rows',
  'upsert_rows',
  'delete_rows',
] as const;
export type ToolName = (typeof toolNames)[number];

const sheet = { type: 'string', description: 'id or unique name' };
const strings = { type: 'object', additionalProperties: { type: 'string' } };
const filters = { ...strings, description: 'column: filter, all must hold' };
const or = {
  type: 'array',
  items: { ...strings, minProperties: 1, maxProperties: 1 },
  description: 'column: filter each, one must hold',
};
const idempotencyKey = { type: 'string', pattern: '^[ -~]{1,255}$', description: 'applied once' };
const rows = { type: 'array', items: { type: 'object' }, minItems: 1 };
const keyList = { type: 'array', items: { type: 'string' } };
// The row API checks each key's form and answers what is wrong with it.
const keys = { ...keyList, minItems: 1, description: 'rows by _key' };
/** An input's arguments, `required` among them; others are refused (see check-arguments.ts). */
const input = (properties: Schema, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const output = (properties: Schema): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
});
const integer = { type: 'integer' };
const list = { type: 'array', items: { type: 'object' } };
const count = (name: string): Schema => output({ [name]: integer });
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

/**
 * The tools, compact: an agent pays for every word of `tools/list` on every turn, and
 * `describe_sheet` says the rest (the columns and how filters are written).
 */
export const tools: readonly ToolDefinition[] = [
  {
    name: 'list_sheets',
    description: 'Sheets you may use: id, name, row count',
    scopes: [],
    inputSchema: input({}),
    outputSchema: output({ sheets: list }),
    annotations: read,
  },
  {
    name: 'describe_sheet',
    description: 'Columns and their types, row count, whether delete is on, filter syntax',
    scopes: ['read'],
    inputSchema: input({ sheet }, ['sheet']),
    outputSchema: { type: 'object' },
    annotations: read,
  },
  {
    name: 'query_rows',
    description: 'Read rows (with _key), filtered, sorted and paged',
    scopes: ['read'],
    inputSchema: input(
      {
        sheet,
        filters,
        or,
        keys,
        sort: { type: 'string', description: 'city,-age' },
        limit: { type: 'integer', minimum: 0 },
        offset: { type: 'integer', minimum: 0 },
        fields: { type: 'array', items: { type: 'string' } },
      },
      ['sheet'],
    ),
    outputSchema: output({ rows: list, total: integer }),
    annotations: read,
  },
  {
    name: 'aggregate_rows',
    description:
      'Group rows and aggregate: count(), count(col), count_distinct, sum, avg, min, max',
    scopes: ['read'],
    inputSchema: input(
      {
        sheet,
        group: { type: 'array', items: { type: 'string' } },
        aggregates: { type: 'array', items: { type: 'string' }, description: 'sum(price)' },
        filters,
        or,
        sort: { type: 'string' },
        limit: { type: 'integer', minimum: 0 },
        offset: { type: 'integer', minimum: 0 },
      },
      ['sheet'],
    ),
    outputSchema: output({ groups: list }),
    annotations: read,
  },
  {
    name: 'add_rows',
    description: 'Append rows (column → value)',
    scopes: ['create'],
    inputSchema: input({ sheet, rows, idempotency_key: idempotencyKey }, ['sheet', 'rows']),
    outputSchema: output({ created: integer, keys: keyList }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  {
    name: 'update_rows',
    description: 'Set the given column values on the rows chosen',
    scopes: ['update'],
    inputSchema: input(
      {
        sheet,
        filters,
        or,
        keys,
        values: { type: 'object', minProperties: 1 },
        idempotency_key: idempotencyKey,
      },
      ['sheet', 'values'],
    ),
    outputSchema: count('updated'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  {
    name: 'upsert_rows',
    description: 'Update rows whose key_column equals each row’s value, else append it',
    scopes: ['read', 'create', 'update'],
    inputSchema: input(
      { sheet, key_column: { type: 'string' }, rows, idempotency_key: idempotencyKey },
      ['sheet', 'key_column', 'rows'],
    ),
    outputSchema: output({ created: integer, updated: integer, keys: keyList }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  {
    name: 'delete_rows',
    description: 'Delete the rows chosen',
    scopes: ['delete'],
    inputSchema: input({ sheet, filters, or, keys, idempotency_key: idempotencyKey }, ['sheet']),
    outputSchema: count('deleted'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
];

/** The tools a credential with these scopes may call; null scopes: the administrator's. */
export function toolsFor(scopes: readonly Scope[] | null): ToolDefinition[] {
  return tools.filter(
    (tool) => scopes === null || tool.scopes.every((scope) => scopes.includes(scope)),
  );
}

/** What `describe_sheet` says of filters, so that an agent needs no other documentation. */
export const filterGuide = [
  'filters: {"col": "Ann"} exact (case matters); "Jo*" wildcard; "" empty cell;',
  '"__gt(30)" "__ge" "__lt" "__le" "__eq" "__ne"; "__in(a,b)" "__nin(a,b)"; "__ieq(ann)" "__ilike(jo*)" ignore case.',
  'All filters must hold; "or": [{"city":"Oslo"},{"age":"__gt(40)"}] needs one of them too.',
  'sort: "city,-age". Numbers compare as numbers.',
  'Rows carry "_key", which stays with the row while others are added, deleted or moved:',
  'pass "keys" instead of filters to read, update or delete exactly those rows.',
].join(' ');
