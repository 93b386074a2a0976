import { aggregateFunctions } from '../query/parse-aggregate.ts';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { scopes } from '../access/api-keys.ts';
import { maxLifetimeSeconds, maxOverlapSeconds } from '../access/key-expiry.ts';
import { operators } from '../query/parse-filter.ts';
import { accessModes, type MirroredSource } from '../model/sheet.ts';
import type { ProviderKind } from '../providers/registry.ts';
import { problemResponses, type OperationId } from './operation-problems.ts';

/**
 * Request and response shapes, for validation where the framework can do it and for the
 * OpenAPI document served at /openapi.json.
 */
export const ProblemDocument = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable, machine-readable error code.' }),
    instance: Type.Optional(Type.String()),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem document.' },
);

const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const RowObject = Type.Record(Type.String(), CellValue, {
  description: 'A row: column name to cell value.',
});

const sheetParams = Type.Object({
  sheetId: Type.String({ description: 'The sheet id from /admin/v1/sheets.' }),
});

/** `_or` may be repeated, so it arrives as one text or a list of them. */
const orFilters = Type.Optional(
  Type.Union([Type.String(), Type.Array(Type.String())], {
    description:
      'Filters separated by |, each written as <column>=<value>: rows where at least one holds (city=Oslo|age=__gt(40)). \\| is a literal |, \\\\ a backslash, \\= an = in a column name. May be repeated: each must hold.',
  }),
);

const filters = [
  'Filters, as any other parameter: <column>=<text> (equality), <column>=Jo* (wildcard),',
  `<column>=__<op>(<value>) with op one of ${operators.filter((op) => op !== 'in' && op !== 'nin').join(', ')},`,
  '<column>=__in(a,b) and __nin(a,b) (a value holding , ( ) or " in double quotes, "" for a quote).',
].join(' ');

/** `_q`, the search that reads, aggregates and writes take as a filter. */
const search = Type.Optional(
  Type.String({
    description:
      "Rows where some cell's text contains this text, ignoring case (Unicode case folding: ÉCOLE finds école); never column names. ANDed with the filters.",
  }),
);

/** `_key`, which chooses rows by the key that stays with each row. */
const keyParameter = Type.Optional(
  Type.String({
    description:
      'Row keys (as `_key` answers them), separated by commas: the rows with these keys, wherever they are now. Every key must name a row, or 404 `row-not-found` and nothing changes. Not with `_id` or filters.',
  }),
);

const filterQuery = Type.Object(
  {
    _id: Type.Optional(
      Type.String({ description: 'Zero-based row position, or several separated by commas.' }),
    ),
    _key: keyParameter,
    _or: orFilters,
    _q: search,
  },
  { additionalProperties: true, description: filters },
);

const readQuery = Type.Object(
  {
    _id: Type.Optional(Type.String()),
    _limit: Type.Optional(Type.String({ description: 'At most this many rows.' })),
    _offset: Type.Optional(Type.String({ description: 'Skip this many rows first.' })),
    _key: keyParameter,
    _with_id: Type.Optional(
      Type.String({ description: 'true: each row carries its position as "_id", first.' }),
    ),
    _with_key: Type.Optional(
      Type.String({
        description:
          'true: each row carries its key as "_key" (text), first, or after "_id"; CSV and XLSX answers get a _key column. A key stays with its row while rows above it come and go, and is never given to another row of the sheet. 400 when the sheet has a column named _key.',
      }),
    ),
    _sort: Type.Optional(
      Type.String({
        description:
          'Columns to sort by, "-" for descending: name,-age. With _group, group columns and aggregate expressions: -sum(price),city.',
      }),
    ),
    _fields: Type.Optional(
      Type.String({ description: 'The columns each row carries, in this order: name,email' }),
    ),
    _or: orFilters,
    _q: search,
    _group: Type.Optional(
      Type.String({
        description:
          'Answer one object per group of rows with equal cells in these columns (city,year), in the order of each group\'s first row; empty cells group under null; 31 and "31" are different groups. Without _agg, the distinct groups. \\, is a comma, \\( and \\) parentheses, \\\\ a backslash in a column name. _sort then takes group columns and aggregates (-sum(price)), _limit and _offset page groups; _fields does not apply.',
      }),
    ),
    _agg: Type.Optional(
      Type.String({
        description: `Aggregates of each group (or of all chosen rows, as one object, without _group), each under its expression as written: ${aggregateFunctions.map((fn) => `${fn}(${fn === 'count' ? '[column]' : 'column'})`).join(', ')}. count() counts rows, count(column) non-empty cells; sum, avg, min and max read number cells only and answer null where a group has none.`,
      }),
    ),
  },
  { additionalProperties: true, description: filters },
);

const count = (name: string) => Type.Object({ [name]: Type.Integer() });

type Security = Record<string, string[]>[];
/**
 * Who may call the row API: a key of the sheet (as a bearer token or in X-Api-Key), the
 * administrator token, or no one at all where the sheet's access mode lets anyone (`{}`).
 */
export const rowSecurity: Security = [{ apiKey: [] }, { apiKeyHeader: [] }, { adminToken: [] }, {}];
/** The management API takes the administrator token. */
export const adminSecurity: Security = [{ adminToken: [] }];

/** A management operation: its id, its security, and the problems it can answer. */
export const adminOperation = (operationId: OperationId, tag: string) => ({
  operationId,
  tags: [tag],
  security: adminSecurity,
});
export { problemResponses };

/** A row API operation: its id, its security, and the sheet in its path. */
export const rowOperation = (operationId: OperationId) => ({
  operationId,
  tags: ['rows'],
  security: rowSecurity,
  params: sheetParams,
});

/** The `Idempotency-Key` header every write takes. */
const idempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the write safe to send again: a retry with the same key, method, query and body within 24 hours is answered with the first answer (marked `Idempotent-Replayed: true`) and applies nothing. A quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or a bare token, at most 255 characters; a fresh UUID per write is best.',
    }),
  ),
});

const createdKeys = Type.Array(Type.String(), {
  description:
    'The key of the row each body row created (or, with _upsert, created or updated: its first match), in body order. Answers stored before keys existed have none.',
});

const rowParams = Type.Object({
  sheetId: Type.String({ description: 'The sheet id from /admin/v1/sheets.' }),
  key: Type.String({
    description: 'The row\'s key, as `_key` answers it: 1 to 64 of A-Z, a-z, 0-9, "_" and "-".',
  }),
});

/** A write of one row by its key: answered as the same write with `?_key=<key>`. */
const rowByKeyWrite = (
  operationId: OperationId,
  summary: string,
  body: TSchema | null,
  counted: string,
) => ({
  ...rowOperation(operationId),
  params: rowParams,
  summary,
  description:
    "As the same method with `?_key=<key>`: 404 `row-not-found` once the row is gone, and nothing changes. `If-Match` takes the row's ETag (from GET of the row) or the sheet's. A `_key` in the body must be this key.",
  headers: idempotencyHeaders,
  ...(body === null ? {} : { body }),
  response: { 200: count(counted), ...problemResponses(operationId) },
});

const rowWrite = (
  operationId: OperationId,
  summary: string,
  body: TSchema,
  status: number,
  counted: string,
) => ({
  ...rowOperation(operationId),
  summary,
  description: filters,
  querystring: filterQuery,
  headers: idempotencyHeaders,
  body,
  response: { [status]: count(counted), ...problemResponses(operationId) },
});

const readRows = (operationId: OperationId, summary: string) => ({
  ...rowOperation(operationId),
  summary,
  description: filters,
  querystring: readQuery,
  response: {
    200: {
      description:
        'Rows in sheet order (or _sort order); CSV with Accept: text/csv; an XLSX workbook (header row, typed cells) with Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.',
      content: {
        'application/json': { schema: Type.Array(RowObject) },
        'text/csv': { schema: Type.String() },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: Type.String({ format: 'binary' }),
        },
      },
    },
    304: Type.Null({ description: 'Not modified: If-None-Match names the current version.' }),
    ...problemResponses(operationId),
  },
});

export const rowRouteSchemas = {
  read: readRows('readRows', 'Read rows, optionally filtered, sorted and paged'),
  query: readRows('queryRows', 'Read rows, as GET /api/v1/{sheetId} does'),
  POST: {
    ...rowWrite(
      'appendRows',
      'Append one row (object) or several (array), atomically; with _upsert, insert or update by a key column',
      Type.Union([RowObject, Type.Array(RowObject)]),
      201,
      'created',
    ),
    description:
      'With `_upsert=<column>`, each body row updates (as PATCH) every row whose `<column>` equals its own value (the equality of `<column>=<value>`: `*` is literal), or is appended when none does; body rows apply in order, in one atomic write. Answers `{"created","updated"}` (updated counts existing rows changed), 201 when a row was created, else 200. A body row without a value in the column answers 400 `upsert-key-missing`; an unknown column 400 `unknown-column`. A key needs the `create` scope; with `_upsert` also `update` and `read` (403 `forbidden` names the one missing).',
    headers: idempotencyHeaders,
    querystring: Type.Object({
      _upsert: Type.Optional(
        Type.String({ description: 'The key column: insert or update by its value.' }),
      ),
    }),
    response: {
      201: Type.Object({
        created: Type.Integer(),
        updated: Type.Optional(Type.Integer()),
        keys: Type.Optional(createdKeys),
      }),
      200: Type.Object({
        created: Type.Integer(),
        updated: Type.Integer(),
        keys: Type.Optional(createdKeys),
      }),
      ...problemResponses('appendRows'),
    },
  },
  readRow: {
    ...rowOperation('readRow'),
    params: rowParams,
    summary: 'Read one row by its key',
    description:
      "The row with this key, wherever it is now, as one object starting with `_key` (after `_id` with `_with_id=true`). Its `ETag` is the row's own: it changes exactly when the row's cells change, and `If-Match` with it on a write of the row answers 412 only when that row changed since.",
    querystring: Type.Object({ _with_id: readQuery.properties._with_id }),
    response: {
      200: Type.Record(Type.String(), CellValue, {
        description: 'The row: "_key", then column name to cell value.',
      }),
      304: Type.Null({ description: "Not modified: If-None-Match names the row's current ETag." }),
      ...problemResponses('readRow'),
    },
  },
  PUT_ROW: rowByKeyWrite('replaceRow', 'Replace one row by its key, whole', RowObject, 'updated'),
  PATCH_ROW: rowByKeyWrite(
    'patchRow',
    'Change only the columns sent in one row, by its key',
    RowObject,
    'updated',
  ),
  DELETE_ROW: rowByKeyWrite('deleteRow', 'Delete one row by its key', null, 'deleted'),
  PUT: rowWrite(
    'replaceRows',
    'Replace the chosen rows whole; columns left out become empty',
    RowObject,
    200,
    'updated',
  ),
  PATCH: rowWrite(
    'patchRows',
    'Change only the columns sent in the chosen rows; a body of {} answers 400',
    RowObject,
    200,
    'updated',
  ),
  DELETE: {
    ...rowOperation('deleteRows'),
    summary: 'Delete the chosen rows; rows below move up',
    description: filters,
    querystring: filterQuery,
    headers: idempotencyHeaders,
    response: { 200: count('deleted'), ...problemResponses('deleteRows') },
  },
};

/**
 * Each row route also answers under `/api/v1/sheets/`; the document shows one path of each,
 * since a path of either family could match the other's (`/api/v1/sheets/query`).
 */
export function documentedOnce<T extends object>(schema: T, url: string): T {
  return url.startsWith('/api/v1/sheets/') ? { ...schema, hide: true } : schema;
}

/** A sheet's `source`: from scratch, an upload, or the stored source of a provider's tab. */
function sheetSource(providers: readonly ProviderKind[]) {
  return Type.Union(
    [
      Type.Object({ provider: Type.Literal('scratch') }),
      Type.Object({
        provider: Type.Literal('upload'),
        fileName: Type.String(),
        format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], {
          description: 'csv for any delimited text file (.csv, .tsv, .txt).',
        }),
        tab: Type.Optional(Type.String({ description: 'The worksheet of a workbook.' })),
        delimiter: Type.Optional(
          Type.String({
            description: 'The field delimiter a CSV file was read with, given or detected.',
          }),
        ),
        encoding: Type.Optional(
          Type.String({
            description:
              'The text encoding a CSV file was read with, given or detected: utf-8, utf-16le, utf-16be, windows-1252, ...',
          }),
        ),
        decimal: Type.Optional(
          Type.Union([Type.Literal('.'), Type.Literal(',')], {
            description:
              'The decimal mark a CSV file was read with, given or decided from the whole file.',
          }),
        ),
      }),
      ...providers.map((provider) => provider.sourceSchema),
    ],
    { description: 'Where the rows came from.' },
  );
}

const access = Type.Union(
  accessModes.map((mode) => Type.Literal(mode)),
  {
    description:
      'open: no key needed; public-read: reads need no key, writes do; private: every request needs a key.',
  },
);
/** A sheet as the management API describes it, with the sources of every known provider. */
export function sheetDescription(providers: readonly ProviderKind[]) {
  return Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      columns: Type.Array(Type.String()),
      rowCount: Type.Integer(),
      source: sheetSource(providers),
      tabGone: Type.Optional(
        Type.String({
          format: 'date-time',
          description:
            'When the mirrored tab (known by its id) was found gone from its spreadsheet: reads serve the rows last read from it, and writes answer 409 tab-gone until it is back.',
        }),
      ),
      settings: Type.Object({
        deleteEnabled: Type.Boolean(),
        access,
        allowedOrigins: Type.Array(Type.String()),
        freshnessSeconds: Type.Optional(Type.Integer()),
        watch: Type.Optional(Type.Boolean()),
        watchIntervalSeconds: Type.Optional(Type.Integer()),
        textColumns: Type.Optional(Type.Array(Type.String())),
      }),
      createdAt: Type.String({ format: 'date-time' }),
      updatedAt: Type.String({ format: 'date-time' }),
    },
    { $id: 'Sheet' },
  );
}

/** Sheet names: printable text, no control characters. */
const sheetName = () =>
  Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f]+$' });

export const NewScratchSheet = Type.Object(
  {
    name: sheetName(),
    columns: Type.Array(Type.String(), { minItems: 1 }),
    rows: Type.Optional(Type.Array(RowObject)),
  },
  { additionalProperties: false },
);

const freshnessSeconds = Type.Integer({
  minimum: 0,
  maximum: 86_400,
  description:
    'How old, in seconds, the copy of a mirrored spreadsheet may be before it is re-read.',
});

/**
 * A sheet that mirrors a provider's tab: `source` is one of the known providers' shapes, told
 * apart by `provider`, which the provider then reads (see providers/registry.ts).
 */
export function newMirroredSheet(providers: readonly ProviderKind[]) {
  return Type.Object(
    {
      name: Type.Optional(sheetName()),
      source: Type.Unsafe<MirroredSource>(oneOf(providers.map((kind) => kind.requestSchema))),
      freshnessSeconds: Type.Optional(freshnessSeconds),
    },
    { additionalProperties: false },
  );
}

/** One of the shapes, told apart by their `provider`; a lone shape is used as it is. */
function oneOf(shapes: TSchema[]): object {
  const description = 'The spreadsheet tab to mirror, as its provider names it.';
  const [only] = shapes;
  return shapes.length === 1 && only !== undefined
    ? { ...only, description }
    : { oneOf: shapes, description };
}

export type NewMirroredSheet = Static<ReturnType<typeof newMirroredSheet>>;

/** `GET /admin/v1/providers`: an entry for every known provider, configured or not. */
export function providersDescription(providers: readonly ProviderKind[]) {
  return Type.Object(
    Object.fromEntries(providers.map((provider) => [provider.name, provider.statusSchema])),
  );
}

const allowedOrigins = Type.Array(
  Type.String({
    pattern: '^(\\*|https?://[^/\\s]+)$',
    description: 'An origin like https://example.com, or *.',
  }),
  { maxItems: 100, description: 'Origins whose pages may call the row API from a browser.' },
);

const watch = Type.Union([Type.Boolean(), Type.Null()], {
  description:
    'For sheets connected to a spreadsheet service: true checks the spreadsheet for changes on a schedule, false never; null (the default) while the sheet has a webhook on or an event stream opened with a key.',
});

const watchIntervalSeconds = Type.Union(
  [Type.Integer({ minimum: 5, maximum: 86_400 }), Type.Null()],
  {
    description:
      "How often, in seconds, a watched sheet is checked; null for the server's interval (SHEETPORT_WATCH_INTERVAL_SECONDS).",
  },
);

export const SheetPatch = Type.Object(
  {
    name: Type.Optional(sheetName()),
    deleteEnabled: Type.Optional(Type.Boolean()),
    freshnessSeconds: Type.Optional(freshnessSeconds),
    watch: Type.Optional(watch),
    watchIntervalSeconds: Type.Optional(watchIntervalSeconds),
    access: Type.Optional(access),
    allowedOrigins: Type.Optional(allowedOrigins),
    textColumns: Type.Optional(
      Type.Array(Type.String(), {
        uniqueItems: true,
        description:
          'The columns whose every cell is text, such as codes (007, 1001): the whole list. A column added to it has its stored numbers turned into the text they show; a column taken off it keeps its cells as they are, and later writes are typed as usual.',
      }),
    ),
  },
  {
    $id: 'SheetPatch',
    additionalProperties: false,
    minProperties: 1,
    description: 'The settings to change, and only those.',
  },
);

export const adminParams = Type.Object({ sheetId: Type.String() });
export const keyParams = Type.Object({ sheetId: Type.String(), keyId: Type.String() });

const scope = Type.Union(scopes.map((name) => Type.Literal(name)));

/** The expiry a new key may be given: a moment, or a lifetime (not both). */
const keyExpiry = {
  expiresAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When the key stops working (future).' }),
  ),
  expiresInSeconds: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxLifetimeSeconds,
      description: 'Or: how long from now the key works.',
    }),
  ),
};

export const CreateApiKey = Type.Object(
  {
    scopes: Type.Array(scope, { minItems: 1, uniqueItems: true }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    ...keyExpiry,
  },
  { additionalProperties: false },
);

/**
 * For routes whose body is all optional (a rotation): a POST without one reads as `{}`, so that
 * the schema still checks whatever is sent.
 */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  request.body ??= {};
}

export const RotateApiKey = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: maxOverlapSeconds,
        description:
          'How long the old key keeps working: 86400 (a day) by default; 0 revokes it now.',
      }),
    ),
    ...keyExpiry,
  },
  { additionalProperties: false },
);

export const RotateWebhookSecret = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: maxOverlapSeconds,
        description:
          'How long deliveries are signed with the old secret too: 86400 (a day) by default; 0 for none.',
      }),
    ),
  },
  { additionalProperties: false },
);
