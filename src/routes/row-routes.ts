import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { methodNotAllowed, Problem, sheetNotFound } from '../errors/problem.ts';
import { parseRowQuery, type QueryString, type RowQuery } from '../query/parse-row-query.ts';
import { planRead, readsWholeSheet, type ReadPlan, type WriteOp } from '../query/plan.ts';
import { planWriteOp, writeMethods, type WriteMethod } from '../store/plan-write-op.ts';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { ClientGone } from '../sheets/write-queue.ts';
import { clientGoneSignal } from './client-gone.ts';
import { mayRead, type AccessControl, type Caller } from '../access/access-control.ts';
import type { IdempotencyKeys } from '../sheets/idempotency-keys.ts';
import type { CellRows, HeldKey } from '../store/store.ts';
import type { WriteFate } from '../sheets/write-path.ts';
import { actorOf, keyedWrite } from './keyed-write.ts';
import { checkQuery, checkWrite, type Limits } from '../access/limits.ts';
import type { KeyLimit } from '../access/rate-limits.ts';
import type { AnswerKey, ReadCache } from './read-cache.ts';
import { csvText } from '../files/csv-writer.ts';
import { xlsxAnswer, xlsxType, type CellChunks } from '../files/xlsx-writer.ts';
import { jsonArray, negotiateFormat } from './row-response.ts';
import { groupChunks, groupsCsv, groupsJson } from './group-response.ts';
import { asksForAggregates, planAggregate } from '../query/plan-aggregate.ts';
import { bodyOf, payloadOf, type AnswerBody } from './answer-body.ts';
import { eventRoutes } from './event-routes.ts';
import type { EventSettings } from '../sheets/event-settings.ts';
import { sheetDocumentRoutes } from './sheet-document-routes.ts';
import { documentedOnce, rowRouteSchemas } from './schemas.ts';
import { keyOfRid, ridOfRowEtag } from '../query/row-key.ts';
import type { RowTag } from '../store/plan-write.ts';
import { pathKey, readRowByKey, refuseQuery, type RowByKeyRequest } from './row-by-key.ts';

export interface RowRouteDeps {
  sheets: Sheets;
  cache: ReadCache;
  access: AccessControl;
  /** Counts a request against its API key's rate limit. */
  keyLimit: KeyLimit;
  limits: Limits;
  /** Where writes' `Idempotency-Key`s are claimed and kept. */
  keys: IdempotencyKeys;
  /** How row events are streamed. */
  events: EventSettings;
}

type RowRequest = FastifyRequest<{ Params: { sheetId: string }; Querystring: QueryString }>;

/**
 * The row API. Each handler reads as the request's stages: find the sheet, parse the query,
 * plan it against the sheet's columns, run it on the store or the write queue, shape the answer.
 */
export async function rowRoutes(
  app: FastifyInstance,
  { sheets, cache, access, keyLimit, limits, keys, events }: RowRouteDeps,
): Promise<void> {
  /** Who sent each request, as the access check found: keys and events are scoped by it. */
  const callers = new WeakMap<object, Caller>();
  // Row bodies are JSON only; anything else is refused with 415 rather than read as text.
  app.removeContentTypeParser('text/plain');

  // Who may do this is settled before the body is read.
  app.addHook('onRequest', async (request) => {
    const { sheetId } = request.params as { sheetId?: string };
    if (sheetId === undefined || request.method === 'OPTIONS') return;
    const caller = await access.row(request, await sheets.lookup(request, sheetId));
    callers.set(request, caller);
    if (caller.kind === 'key') await keyLimit(request, caller.keyId);
  });
  await app.register(eventRoutes, {
    sheets,
    access,
    settings: events,
    // An anonymous reader's stream does not spend the Google quota on watching.
    listening: (request) => (callers.get(request)?.kind ?? 'anonymous') !== 'anonymous',
    expiryOf: (request) => {
      const caller = callers.get(request);
      return caller?.kind === 'key' ? caller.expiresAt : null;
    },
  });
  await app.register(sheetDocumentRoutes, { sheets });

  async function read(request: RowRequest, reply: FastifyReply) {
    // A query that cannot be read is refused before the sheet is looked up.
    const query = parseRowQuery(request.query);
    checkQuery(query, limits);
    const sheet = await sheets.loadFresh(request, request.params.sheetId);
    if (asksForAggregates(query)) return groups(request, reply, sheet, query);
    const plan = planRead(sheet, query);
    const format = negotiateFormat(request.headers.accept);
    const etag = (version: number) => `W/"${version}${format === 'json' ? '' : `-${format}`}"`;
    if (notModified(request, reply, etag(sheet.version))) return reply;
    const { url } = request;
    if (format === 'xlsx') {
      // A workbook is written as its rows are read: never held whole, nor cached.
      const answer = await selectedCells(sheet, plan);
      pageHeaders(reply, url, plan, answer.total);
      const { columns, rows } = answer;
      return reply
        .type(xlsxType)
        .header('etag', etag(answer.version))
        .header('content-disposition', attachment(`${sheet.name}.xlsx`))
        .send(await xlsxAnswer(sheet.name, columns, rows, plan.withIds));
    }
    void reply.type(
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    );
    const at = answerKey(sheet, format, url, format === 'json' && readsWholeSheet(plan));
    // A large answer is sent as it is read, and never held whole, nor cached, nor shared.
    const answer = await cache.answer(at, async (keep) => {
      const read = format === 'csv' ? await csvAnswer(sheet, plan) : await jsonAnswer(sheet, plan);
      if (read.streamed) return { kind: 'streamed', ...read };
      const answer = { body: await whole(read.body), total: read.total };
      const body = keep ? cache.set({ ...at, version: read.version }, answer) : answer.body;
      return { kind: 'whole', body, total: read.total, version: read.version };
    });
    pageHeaders(reply, url, plan, answer.total);
    return reply
      .header('etag', etag(answer.version))
      .send(
        answer.kind === 'whole'
          ? payloadOf(reply, answer.body)
          : Readable.from(flat(answer.body), { objectMode: false }),
      );
  }

  /**
   * `_group` and `_agg`: answered as reads are (ETag, 304, cache, JSON, CSV or XLSX, paging
   * headers), from the groups the store computed; a group answer is small, so it is held whole.
   */
  async function groups(request: RowRequest, reply: FastifyReply, sheet: Sheet, query: RowQuery) {
    const plan = planAggregate(sheet, query);
    const format = negotiateFormat(request.headers.accept);
    const etag = (version: number) => `W/"${version}${format === 'json' ? '' : `-${format}`}"`;
    if (notModified(request, reply, etag(sheet.version))) return reply;
    const { url } = request;
    if (format === 'xlsx') {
      const answer = await sheets.readAggregate(sheet, plan);
      pageHeaders(reply, url, plan, answer.total);
      return reply
        .type(xlsxType)
        .header('etag', etag(answer.version))
        .header('content-disposition', attachment(`${sheet.name}.xlsx`))
        .send(await xlsxAnswer(sheet.name, plan.keys, groupChunks(answer.rows), false));
    }
    void reply.type(
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    );
    const at = answerKey(sheet, format, url, false);
    const answer = await cache.answer(at, async (keep) => {
      const read = await sheets.readAggregate(sheet, plan);
      const text =
        format === 'csv' ? await groupsCsv(plan.keys, read.rows) : groupsJson(plan.keys, read.rows);
      const answer = { body: bodyOf([text]), total: read.total };
      const body = keep ? cache.set({ ...at, version: read.version }, answer) : answer.body;
      return { kind: 'whole', body, total: read.total, version: read.version };
    });
    pageHeaders(reply, url, plan, answer.total);
    const body = answer.kind === 'whole' ? answer.body : await whole(answer.body);
    return reply.header('etag', etag(answer.version)).send(payloadOf(reply, body));
  }

  async function jsonAnswer(sheet: Sheet, plan: ReadPlan): Promise<Answer> {
    const answer = await sheets.readJson(sheet, plan);
    return { ...answer, body: jsonArray(answer.chunks) };
  }

  /**
   * The cells a CSV or workbook answer holds: the columns `_fields` asks for, in its order, and
   * the rows narrowed to them. (A JSON answer is narrowed by the store, as it writes the JSON.)
   */
  async function selectedCells(sheet: Sheet, plan: ReadPlan) {
    const answer = await sheets.readCells(sheet, plan);
    const fields = plan.fields;
    const chosen = fields === null ? sheet.columns : fields.map((i) => sheet.columns[i] ?? '');
    // `_with_key`: the key is a column of its own, after `_id` (which the writers put first).
    const columns = plan.withKeys ? ['_key', ...chosen] : chosen;
    return { ...answer, columns, rows: narrowed(answer.chunks, fields, plan.withKeys) };
  }

  async function csvAnswer(sheet: Sheet, plan: ReadPlan): Promise<Answer> {
    const answer = await selectedCells(sheet, plan);
    const text = csvText(answer.columns, answer.rows, plan.withIds);
    async function* csv(): AsyncIterable<Buffer[]> {
      for await (const part of text) yield [Buffer.from(part)];
    }
    return { ...answer, body: csv() };
  }

  /** `/rows/<key>`: a write to the row with this key, as `?_key=<key>` writes it. */
  async function writeByKey(request: RowByKeyRequest, reply: FastifyReply) {
    const key = pathKey(request);
    refuseQuery(request);
    return write(request, reply, key);
  }

  async function write(request: RowRequest, reply: FastifyReply, rowKey?: string) {
    // Watched from the start: a client may leave while the write waits for a re-read.
    const signal = clientGoneSignal(reply);
    const caller = callers.get(request) ?? { kind: 'anonymous' };
    // As for reads, a query that cannot be run is refused first: before any key is claimed, and
    // before the sheet is re-read.
    const meant = rowKey === undefined ? undefined : { _key: rowKey };
    const query = parseRowQuery(meant ?? request.query);
    checkQuery(query, limits);
    const ifMatch = parseIfMatch(request.headers['if-match']);
    // A key is kept with its sheet: one that does not exist is answered before any is claimed.
    if ((await sheets.lookup(request, request.params.sheetId)) === null) {
      throw sheetNotFound(request.params.sheetId);
    }
    return keyedWrite(
      keys,
      request,
      reply,
      caller,
      (held) => apply(request, query, ifMatch, caller, held, signal),
      // A key held by a push whose outcome is not known is settled by a re-read of the sheet:
      // started here, so that a client retrying with its key alone still gets its answer.
      () => void sheets.loadFresh(request, request.params.sheetId).catch(() => {}),
      meant && new URLSearchParams(meant).toString(),
    );
  }

  async function apply(
    request: RowRequest,
    query: RowQuery,
    ifMatch: IfMatch,
    caller: Caller,
    held: HeldKey | undefined,
    signal: ClientGone,
  ): Promise<WriteFate> {
    // Writes are planned against the columns a fresh read shows, as reads are.
    const sheet = await sheets.loadFresh(request, request.params.sheetId);
    const asked = {
      method: request.method as WriteMethod,
      query,
      params: Object.keys(request.query),
      body: request.body,
    };
    let op: WriteOp;
    try {
      op = planWriteOp(sheet, asked);
    } catch (error) {
      throw mayRead(caller) ? error : withoutColumns(error, sheet);
    }
    checkWrite(op, limits, sheet.columns);
    const actor = actorOf(caller);
    const writeRequest = {
      op,
      ifMatch: ifMatch.versions,
      ...(ifMatch.rows.length > 0 && { ifMatchRows: ifMatch.rows }),
      actor,
      ...(held && { idempotency: held }),
    };
    return sheets.write(sheet, writeRequest, { signal });
  }

  for (const path of ['/api/v1/:sheetId', '/api/v1/sheets/:sheetId']) {
    app.get(path, { schema: documentedOnce(rowRouteSchemas.read, path) }, read);
    for (const method of writeMethods) {
      const schema = documentedOnce(rowRouteSchemas[method], path);
      app.route({ method, url: path, schema, handler: write });
    }
  }
  for (const path of ['/api/v1/:sheetId/rows/:key', '/api/v1/sheets/:sheetId/rows/:key']) {
    app.get(path, { schema: documentedOnce(rowRouteSchemas.readRow, path) }, (request, reply) =>
      readRowByKey(sheets, request as RowByKeyRequest, reply),
    );
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const schema = documentedOnce(rowRouteSchemas[`${method}_ROW`], path);
      app.route({
        method,
        url: path,
        schema,
        handler: (request, reply) => writeByKey(request as RowByKeyRequest, reply),
      });
    }
    app.route({
      method: 'POST',
      url: path,
      schema: { hide: true },
      handler: async () => {
        throw methodNotAllowed(
          'A row by its key is read, replaced, patched or deleted; POST new rows to /api/v1/<sheet_id>.',
          ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'],
        );
      },
    });
  }
  for (const url of ['/api/v1/:sheetId/query', '/api/v1/sheets/:sheetId/query']) {
    app.get(url, { schema: documentedOnce(rowRouteSchemas.query, url) }, read);
    app.route({
      method: [...writeMethods],
      url,
      schema: { hide: true },
      handler: async () => {
        throw methodNotAllowed(
          'The /query endpoint only reads rows; send writes to /api/v1/<sheet_id>.',
          ['GET', 'HEAD'],
        );
      },
    });
  }
}

interface Answer {
  version: number;
  total: number;
  /** Chunks of buffers, each chunk read at once. */
  body: AsyncIterable<Buffer[]>;
  streamed: boolean;
}

/** An answer read in one piece, to send and cache, as the buffers it was read in. */
async function whole(body: AsyncIterable<Buffer[]>): Promise<AnswerBody> {
  const pieces: Buffer[] = [];
  for await (const chunk of body) pieces.push(...chunk);
  return bodyOf(pieces);
}

/**
 * A streamed answer's buffers, written as they are: joining them would copy every byte once
 * more, and each copy is memory the garbage collector frees only later.
 */
async function* flat(body: AsyncIterable<Buffer[]>): AsyncIterable<Buffer> {
  for await (const chunk of body) yield* chunk;
}

/** Rows with only the columns `_fields` asks for, in its order; with their keys first if asked. */
async function* narrowed(
  chunks: AsyncIterable<CellRows>,
  fields: number[] | null,
  withKeys: boolean,
): CellChunks {
  for await (const chunk of chunks) {
    const rows =
      fields === null ? chunk.rows : chunk.rows.map((row) => fields.map((i) => row[i] ?? null));
    yield {
      ...chunk,
      rows: withKeys ? rows.map((row, i) => [keyOfRid(chunk.rids[i] ?? -1), ...row]) : rows,
    };
  }
}

/**
 * An unknown column named to a caller that may not read the sheet: the sheet's columns are
 * part of what it may not read, so they are not listed.
 */
function withoutColumns(error: unknown, sheet: Sheet): unknown {
  if (!(error instanceof Problem) || error.code !== 'unknown-column') return error;
  const { column } = error.extensions;
  return new Problem(
    'unknown-column',
    `Column "${String(column)}" does not exist in sheet "${sheet.name}"; a key with the read scope can list its columns.`,
    { column },
  );
}

/** A download's file name, as plain ASCII and, for any other name, as UTF-8 (RFC 6266). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A conditional read: `Vary: Accept` is added to what CORS put there (`Origin`), not in its
 * place, and a request whose If-None-Match holds the current ETag is answered 304 here.
 */
function notModified(request: RowRequest, reply: FastifyReply, etag: string): boolean {
  const vary = reply.getHeader('vary');
  void reply.header('vary', vary === undefined ? 'accept' : `${String(vary)}, accept`);
  if (!matchesEtag(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).header('etag', etag).send();
  return true;
}

/**
 * With `_limit`, how many rows (or groups) matched before paging, and links to the pages on
 * either side, so a client can page without counting.
 */
function pageHeaders(
  reply: FastifyReply,
  url: string,
  plan: Pick<ReadPlan, 'limit' | 'offset'>,
  total: number,
): void {
  if (plan.limit === null) return;
  void reply.header('x-total-count', String(total));
  const links: string[] = [];
  const page = (offset: number, rel: string) => {
    const [path = '', search = ''] = url.split('?');
    const params = new URLSearchParams(search);
    params.set('_offset', String(offset));
    links.push(`<${path}?${params.toString()}>; rel="${rel}"`);
  };
  if (plan.offset + plan.limit < total) page(plan.offset + plan.limit, 'next');
  if (plan.offset > 0) page(Math.max(0, plan.offset - plan.limit), 'prev');
  if (links.length > 0) void reply.header('link', links.join(', '));
}

/** What names a read's answer in the cache: its sheet, the version found, its format and query. */
function answerKey(sheet: Sheet, format: string, url: string, wholeSheet: boolean): AnswerKey {
  return {
    sheetId: sheet.id,
    version: sheet.version,
    variant: `${format}\n${url.slice(url.indexOf('?') + 1)}`,
    wholeSheet,
  };
}

/**
 * If-Match names the versions a write is based on, as ETags from a read or a write; `*` (or no
 * header) asks for none. ETags are compared by the version they carry, weak or strong, JSON or
 * CSV alike: any one of them is the sheet as a client last saw it.
 */
function parseIfMatch(header: string | undefined): IfMatch {
  if (header === undefined || header.trim() === '*') return { versions: null, rows: [] };
  const versions: number[] = [];
  const rows: RowTag[] = [];
  for (const tag of header.split(',')) {
    // Not an entity tag at all (`banana`): a mistake of the client, not a sheet that moved on.
    if (!/^\s*(?:W\/)?"[^"]*"\s*$/.test(tag)) {
      throw new Problem(
        'invalid-header',
        `If-Match ${JSON.stringify(header)} is not a list of entity tags; send the ETag of a read or a write as it came, such as "12" or W/"12", or * for any version.`,
      );
    }
    // A row's own ETag (from /rows/<key>): the write applies while that row is as it was.
    const rid = ridOfRowEtag(tag);
    if (rid !== null) {
      rows.push({ rid, etag: tag.trim() });
      continue;
    }
    const version = /^\s*(?:W\/)?"(\d+)(?:-csv|-xlsx)?"\s*$/.exec(tag)?.[1];
    // A tag Sheetport never gave out matches no version.
    versions.push(version === undefined ? -1 : Number(version));
  }
  return { versions: rows.length > 0 && versions.length === 0 ? null : versions, rows };
}

/** `If-Match` as a write takes it: sheet versions (null: none asked) and row ETags. */
interface IfMatch {
  versions: number[] | null;
  rows: RowTag[];
}

/** If-None-Match is a list compared weakly (RFC 9110, 13.1.2); `*` matches any current rows. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
