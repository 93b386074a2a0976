import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';

/**
 * How the administrator token and API keys are sent. Without `SHEETPORT_ADMIN_TOKEN` every
 * caller is the administrator and no credential is needed: the document still names them, as a
 * server facing a network has them.
 */
export const securitySchemes = {
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The administrator token, SHEETPORT_ADMIN_TOKEN: opens every sheet and /admin/v1.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key of the sheet (`sp_…`), within its scopes: read, create, update, delete.',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'An API key of the sheet, in a header of its own.',
  },
} as const;

/** The answers' base: this server, whatever address it is reached at. */
export const servers = [{ url: '/', description: 'This server' }];

/**
 * `_limit` and `_offset` arrive as text and are read by the row query parser, which says what is
 * wrong with a bad one; the document gives them the type a client sends.
 */
const paging = {
  _limit: { type: 'integer', minimum: 0, description: 'At most this many rows.' },
  _offset: { type: 'integer', minimum: 0, description: 'Skip this many rows first.' },
};

type RouteSchema = { querystring?: { properties?: Record<string, unknown> } };

const documentPaging: NonNullable<FastifyDynamicSwaggerOptions['transform']> = ({
  schema,
  url,
}) => {
  const query = (schema as RouteSchema | undefined)?.querystring;
  if (query?.properties?._limit === undefined) return { schema, url };
  const properties = { ...query.properties, ...paging };
  return { schema: { ...schema, querystring: { ...query, properties } }, url };
};

/** The options of the document served at /openapi.json. */
export const documentOptions: FastifyDynamicSwaggerOptions = {
  refResolver: {
    buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
  },
  transform: documentPaging,
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Sheetport',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Spreadsheets as REST APIs of rows. Errors are RFC 9457 problem documents with a stable `code`. Each sheet also describes itself, its columns typed, at `/api/v1/{sheetId}/openapi.json`.',
    },
    servers,
    components: { securitySchemes },
    tags: [
      { name: 'rows', description: 'Read and write the rows of a sheet' },
      { name: 'sheets', description: 'Manage sheets' },
      { name: 'keys', description: "Manage a sheet's API keys" },
      { name: 'webhooks', description: "Send a sheet's row events to a URL" },
    ],
  },
};
