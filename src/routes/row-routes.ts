import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { parseRowQuery, type QueryString } from '../query/parse-row-query.ts';
import {
  fullRow,
  planAppend,
  planCells,
  planRead,
  planTargetedSelection,
  type WriteOp,
} from '../query/plan.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { AccessControl } from '../access/access-control.ts';
import { checkQuery, checkWrite, type Limits } from '../access/limits.ts';
import type { KeyLimit } from '../access/rate-limits.ts';
import type { ReadCache } from './read-cache.ts';
import { negotiateFormat, rowsToCsv, rowsToJson } from './row-response.ts';
import { rowRouteSchemas } from './schemas.ts';

export interface RowRouteDeps {
  sheets: Sheets;
  cache: ReadCache;
  access: AccessControl;
  /** Counts a request against its API key's rate limit. */
  keyLimit: KeyLimit;
  limits: Limits;
}

type RowRequest = FastifyRequest<{ Params: { sheetId: string }; Querystring: QueryString }>;

const writeMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The row API. Each handler reads as the request's stages: find the sheet, parse the query,
 * plan it against the sheet's columns, run it on the store or the write queue, shape the answer.
 */
export async function rowRoutes(
  app: FastifyInstance,
  { sheets, cache, access, keyLimit, limits }: RowRouteDeps,
): Promise<void> {
  // Row bodies are JSON only; anything else is refused with 415 rather than read as text.
  app.removeContentTypeParser('text/plain');

  // Who may do this is settled before the body is read.
  app.addHook('onRequest', async (request) => {
    const { sheetId } = request.params as { sheetId?: string };
    if (sheetId === undefined || request.method === 'OPTIONS') return;
    const caller = await access.row(request, await sheets.lookup(request, sheetId));
    if (caller.kind === 'key') await keyLimit(request, caller.keyId);
  });

  async function read(request: RowRequest, reply: FastifyReply) {
    const sheet = await sheets.forRead(request, request.params.sheetId);
    const query = parseRowQuery(request.query);
    checkQuery(query, limits);
    const plan = planRead(sheet, query);
    const format = negotiateFormat(request.headers.accept);
    const etag = `W/"${sheet.version}${format === 'csv' ? '-csv' : ''}"`;
    void reply.header('etag', etag).header('vary', 'accept');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    void reply.type(
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    );
    const key = `${sheet.id}\n${sheet.version}\n${format}\n${request.url.slice(request.url.indexOf('?') + 1)}`;
    const cached = cache.get(key);
    if (cached !== undefined) return reply.send(cached);
    const { rows, positions } = await sheets.store.readRows(sheet, plan);
    const body = Buffer.from(
      format === 'csv'
        ? rowsToCsv(sheet.columns, rows, positions)
        : rowsToJson(sheet.columns, rows, positions),
    );
    cache.set(key, body);
    return reply.send(body);
  }

  async function write(request: RowRequest, reply: FastifyReply) {
    // Writes are planned against the columns a fresh read shows, as reads are.
    const sheet = await sheets.forRead(request, request.params.sheetId);
    const query = parseRowQuery(request.query);
    checkQuery(query, limits);
    const method = request.method as (typeof writeMethods)[number];
    let op: WriteOp;
    switch (method) {
      case 'POST':
        if (Object.keys(request.query).length > 0) {
          throw new Problem(
            'invalid-parameter',
            'POST appends rows and takes no query parameters.',
          );
        }
        op = planAppend(sheet, request.body);
        break;
      case 'PUT':
        op = {
          kind: 'replace',
          selection: planTargetedSelection(sheet, query, method),
          cells: fullRow(sheet, planCells(sheet, request.body)),
        };
        break;
      case 'PATCH':
        op = {
          kind: 'patch',
          selection: planTargetedSelection(sheet, query, method),
          cells: planCells(sheet, request.body),
        };
        break;
      case 'DELETE':
        if (!sheet.settings.deleteEnabled) {
          throw new Problem(
            'delete-disabled',
            `DELETE is switched off for sheet "${sheet.name}"; turn it on with PATCH /admin/v1/sheets/${sheet.id} {"deleteEnabled": true}.`,
            {},
            { allow: 'GET, HEAD, POST, PUT, PATCH' },
          );
        }
        op = { kind: 'delete', selection: planTargetedSelection(sheet, query, method) };
        break;
    }
    checkWrite(op, limits);
    const { outcome, version } = await sheets.write(sheet, op);
    // The version this write made: a GET answering the same ETag shows exactly its effect.
    if (version !== undefined) void reply.header('etag', `W/"${version}"`);
    return reply.code(method === 'POST' ? 201 : 200).send(outcome);
  }

  for (const path of ['/api/v1/:sheetId', '/api/v1/sheets/:sheetId']) {
    app.get(path, { schema: rowRouteSchemas.read }, read);
    for (const method of writeMethods) {
      app.route({ method, url: path, schema: rowRouteSchemas[method], handler: write });
    }
  }
  for (const url of ['/api/v1/:sheetId/query', '/api/v1/sheets/:sheetId/query']) {
    app.get(url, { schema: rowRouteSchemas.read }, read);
    app.route({
      method: [...writeMethods],
      url,
      schema: { hide: true },
      handler: async () => {
        throw new Problem(
          'method-not-allowed',
          'The /query endpoint only reads rows; send writes to /api/v1/<sheet_id>.',
          {},
          { allow: 'GET, HEAD' },
        );
      },
    });
  }
}

/** If-None-Match is a list compared weakly (RFC 9110, 13.1.2); `*` matches any current rows. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
