import type { Sheet } from '../model/sheet.ts';
import type { CellKind } from './column-kinds.ts';
import { securitySchemes, servers } from './openapi-document.ts';
import { problemResponses, type OperationId } from './operation-problems.ts';
import { ProblemDocument, rowSecurity } from './schemas.ts';
import { aggregateFunctions } from '../query/parse-aggregate.ts';

type Schema = Record<string, unknown>;

/** Dates and times carry no zone (see `cells/cell.ts`), which JSON Schema's formats require. */
const kindSchemas: Record<CellKind, Schema> = {
  number: { type: 'number' },
  text: { type: 'string' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string', pattern: '^\\d{2}:\\d{2}:\\d{2}$', description: 'HH:MM:SS' },
  'date-time': {
    type: 'string',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$',
    description: 'A date and a time, with no zone',
  },
};
const simpleTypes: Partial<Record<CellKind, string>> = {
  number: 'number',
  text: 'string',
  boolean: 'boolean',
};

/**
 * A column's cells: the kinds it holds now, or null (an empty cell). A column with no value yet
 * may take any; text takes in the dates and times, which are text too.
 */
export function columnSchema(kinds: readonly CellKind[]): Schema {
  const held: readonly CellKind[] = kinds.length === 0 ? ['number', 'text', 'boolean'] : kinds;
  const kept = held.includes('text')
    ? held.filter((kind) => simpleTypes[kind] !== undefined)
    : held;
  if (kept.every((kind) => simpleTypes[kind] !== undefined)) {
    return { type: [...kept.map((kind) => simpleTypes[kind]), 'null'] };
  }
  return { anyOf: [...kept.map((kind) => kindSchemas[kind]), { type: 'null' }] };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const count = (name: string) => ({
  type: 'object',
  properties: { [name]: { type: 'integer' } },
  required: [name],
});
const upserted = {
  type: 'object',
  properties: {
    created: { type: 'integer' },
    updated: { type: 'integer' },
    keys: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The key of the row each body row created (with _upsert: created or updated, its first match), in body order.',
    },
  },
  required: ['created'],
};
const keyDescription =
  'Row keys (as "_key" answers them), separated by commas: the rows with these keys, wherever they are now; every key must name a row, or 404. Not with _id or filters.';
const query = (name: string, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

/**
 * The OpenAPI document of one sheet: its rows typed by the kinds its columns hold now, each
 * column a filter of the operations that choose rows, and the bodies of its writes. A client
 * generated from it gets a typed row.
 */
export function sheetDocument(sheet: Sheet, kinds: readonly (readonly CellKind[])[]): Schema {
  // A text column holds text whatever its cells are now (see `text-columns.ts`).
  const text = sheet.settings.textColumns ?? [];
  const columns = sheet.columns.map((name, i) => ({
    name,
    schema: columnSchema(text.includes(name) ? ['text'] : (kinds[i] ?? [])),
  }));
  const properties = Object.fromEntries(columns.map(({ name, schema }) => [name, schema]));
  // Parameters starting with _ are the API's own; such a column is filtered through _or.
  const filters = columns
    .filter(({ name }) => !name.startsWith('_'))
    .map(({ name }) =>
      query(
        name,
        { type: 'string' },
        `Rows whose "${name}" is this value; or Jo* (wildcard), or __<op>(<value>) with op eq, ne, gt, ge, lt, le, ieq, ilike, in, nin.`,
      ),
    );
  const choosing = [
    ...filters,
    query('_id', { type: 'string' }, 'Zero-based row position, or several separated by commas.'),
    query('_key', { type: 'string' }, keyDescription),
    query(
      '_or',
      { type: 'array', items: { type: 'string' } },
      'Filters separated by |: rows where at least one holds (city=Oslo|age=__gt(40)).',
    ),
    query(
      '_q',
      { type: 'string' },
      "Rows where some cell's text contains this text, ignoring case (ÉCOLE finds école).",
    ),
  ];
  // As written in _group and _agg: a comma or parenthesis in a name is escaped with \.
  const written = sheet.columns.map((name) => name.replace(/[\\,()]/g, (c) => `\\${c}`));
  const expressions = [
    'count()',
    ...aggregateFunctions.flatMap((fn) => written.map((name) => `${fn}(${name})`)),
  ];
  const list = (values: string[]) => ({
    type: 'array',
    items: { type: 'string', enum: values },
  });
  const grouping = [
    {
      ...query(
        '_group',
        list(written),
        'Answer one object per group of rows with equal cells in these columns instead of rows: the group columns, then each _agg under its expression. Groups come in the order of their first row; empty cells group under null.',
      ),
      style: 'form',
      explode: false,
    },
    {
      ...query(
        '_agg',
        list(expressions),
        'Aggregates of each group (of all chosen rows, as one object, without _group). sum, avg, min and max read number cells only.',
      ),
      style: 'form',
      explode: false,
    },
  ];
  const names = { type: 'string', enum: sheet.columns };
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      'Makes the write safe to send again: a retry with the same key and request within 24 hours is answered with the first answer and applies nothing.',
  };
  const writing = [...choosing, idempotencyKey];
  const operation = (operationId: OperationId, summary: string, rest: Schema) => ({
    operationId,
    summary,
    tags: ['rows'],
    security: rowSecurity,
    ...rest,
    responses: { ...(rest.responses as Schema), ...problemResponses(operationId, ref('Problem')) },
  });
  const body = (schema: Schema) => ({
    required: true,
    content: { 'application/json': { schema } },
  });
  const withId = sheet.columns.includes('_id')
    ? {}
    : { _id: { type: 'integer', description: 'The row position, with _with_id=true.' } };
  // A column named _key is the sheet's own: rows are then not read with their keys.
  const hasKeyColumn = sheet.columns.includes('_key');
  const withKey = hasKeyColumn
    ? {}
    : { _key: { type: 'string', description: "The row's key, with _with_key=true." } };
  const sentKey = hasKeyColumn
    ? {}
    : { _key: { type: 'string', description: 'May repeat the key of the row written.' } };
  const rowPath = `/api/v1/${encodeURIComponent(sheet.id)}/rows/{key}`;
  const keyParameter = {
    name: 'key',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    description: 'The row\'s key, as "_key" answers it.',
  };
  // Components are named by their key; the schema's own `$id` is for the route schemas.
  const problem: Schema = { ...ProblemDocument };
  delete problem.$id;
  return {
    openapi: '3.1.0',
    info: {
      title: `${sheet.name}: rows`,
      version: String(sheet.version),
      license: { name: 'MIT', identifier: 'MIT' },
      description: `The rows of sheet "${sheet.name}", typed by what its cells hold now; the version is the sheet's, and the types follow its edits.`,
    },
    servers,
    tags: [{ name: 'rows', description: 'Read and write the rows of this sheet' }],
    paths: {
      [`/api/v1/${encodeURIComponent(sheet.id)}`]: {
        get: operation('readRows', 'Read rows, optionally filtered, sorted and paged', {
          parameters: [
            ...choosing,
            query('_limit', { type: 'integer', minimum: 0 }, 'At most this many rows.'),
            query('_offset', { type: 'integer', minimum: 0 }, 'Skip this many rows first.'),
            query(
              '_sort',
              { type: 'string' },
              'Columns to sort by, "-" for descending; with _group, group columns and aggregates (-sum(price)).',
            ),
            query('_with_id', { type: 'boolean' }, 'Each row carries its position as "_id".'),
            ...(hasKeyColumn
              ? []
              : [
                  query(
                    '_with_key',
                    { type: 'boolean' },
                    'Each row carries its key as "_key" (after "_id"): it stays with the row while rows above it come and go.',
                  ),
                ]),
            ...grouping,
          ],
          responses: {
            // CSV and XLSX are served too (Accept), but a typed client reads JSON: listing them
            // would make every answer's type a union with text.
            200: json(
              { type: 'array', items: ref('Row') },
              'Rows in sheet order (or _sort order); CSV or XLSX with Accept, as the main document says.',
            ),
            304: { description: 'Not modified: If-None-Match names the current version.' },
          },
        }),
        post: operation('appendRows', 'Append rows; with _upsert, insert or update by a column', {
          parameters: [
            query('_upsert', names, 'The key column: insert or update by its value.'),
            idempotencyKey,
          ],
          requestBody: body({ anyOf: [ref('NewRow'), { type: 'array', items: ref('NewRow') }] }),
          responses: {
            201: json(upserted, 'Rows created (and, with _upsert, rows updated).'),
            200: json(upserted, 'With _upsert: rows updated, none created.'),
          },
        }),
        put: operation('replaceRows', 'Replace the chosen rows whole', {
          parameters: writing,
          requestBody: body(ref('NewRow')),
          responses: { 200: json(count('updated'), 'Rows replaced.') },
        }),
        patch: operation('patchRows', 'Change only the columns sent in the chosen rows', {
          parameters: writing,
          requestBody: body(ref('NewRow')),
          responses: { 200: json(count('updated'), 'Rows changed.') },
        }),
        delete: operation('deleteRows', 'Delete the chosen rows', {
          parameters: writing,
          responses: { 200: json(count('deleted'), 'Rows deleted.') },
        }),
      },
      [rowPath]: {
        get: operation('readRow', 'Read one row by its key', {
          parameters: [
            keyParameter,
            query('_with_id', { type: 'boolean' }, 'The row carries its position as "_id".'),
          ],
          responses: {
            200: json(
              ref('KeyedRow'),
              "The row, with its own ETag: it changes exactly when the row's cells change.",
            ),
            304: { description: "Not modified: If-None-Match names the row's current ETag." },
          },
        }),
        put: operation('replaceRow', 'Replace one row by its key, whole', {
          parameters: [keyParameter, idempotencyKey],
          requestBody: body(ref('NewRow')),
          responses: { 200: json(count('updated'), 'The row replaced.') },
        }),
        patch: operation('patchRow', 'Change only the columns sent in one row, by its key', {
          parameters: [keyParameter, idempotencyKey],
          requestBody: body(ref('NewRow')),
          responses: { 200: json(count('updated'), 'The row changed.') },
        }),
        delete: operation('deleteRow', 'Delete one row by its key', {
          parameters: [keyParameter, idempotencyKey],
          responses: { 200: json(count('deleted'), 'The row deleted.') },
        }),
      },
    },
    components: {
      securitySchemes,
      schemas: {
        Row: {
          type: 'object',
          description: 'A row as read: every column, in column order.',
          properties: { ...withId, ...withKey, ...properties },
          required: sheet.columns,
          additionalProperties: false,
        },
        KeyedRow: {
          type: 'object',
          description: 'A row read by its key: its key, then every column, in column order.',
          properties: { ...withId, ...withKey, ...properties },
          required: [...(hasKeyColumn ? [] : ['_key']), ...sheet.columns],
          additionalProperties: false,
        },
        NewRow: {
          type: 'object',
          description: 'A row to write: the columns sent; those left out are empty.',
          properties: { ...sentKey, ...properties },
          additionalProperties: false,
        },
        Problem: problem,
      },
    },
  };
}
