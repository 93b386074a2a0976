import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { excerpt } from '../errors/excerpt.ts';
import { planRead } from '../query/plan.ts';
import { parseRowQuery, type QueryString } from '../query/parse-row-query.ts';
import { parseKey, rowEtag, withKey } from '../query/row-key.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { RowCodec } from '../store/row-json.ts';

export type RowByKeyRequest = FastifyRequest<{
  Params: { sheetId: string; key: string };
  Querystring: QueryString;
}>;

/** The row key in a `/rows/<key>` path, checked: a key that cannot exist is a 400. */
export function pathKey(request: RowByKeyRequest): string {
  return parseKey(request.params.key, 'The row key in the path');
}

/**
 * `GET /api/v1/<id>/rows/<key>`: the row with this key, as one object starting with `_key`
 * (after `_id` with `_with_id=true`), and the row's own ETag, which changes exactly when its
 * cells do (a move of the row, or a change of another, leaves it). 404 once the row is gone.
 */
export async function readRowByKey(
  sheets: Sheets,
  request: RowByKeyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const key = pathKey(request);
  const unknown = Object.keys(request.query).find((name) => name !== '_with_id');
  if (unknown !== undefined) {
    throw new Problem(
      'invalid-parameter',
      `A read of one row by its key takes no query parameter but _with_id; got "${excerpt(unknown)}".`,
      { parameter: excerpt(unknown) },
    );
  }
  const query = { ...parseRowQuery(request.query), keys: [key], withKeys: true };
  const sheet = await sheets.loadFresh(request, request.params.sheetId);
  const plan = planRead(sheet, query);
  const answer = await sheets.readCells(sheet, plan);
  let found: { pos: number; rid: number; json: string; dates: string | null } | null = null;
  const codec = new RowCodec(sheet.columns);
  for await (const chunk of answer.chunks) {
    const cells = chunk.rows[0];
    if (cells === undefined) continue;
    const pos = chunk.positions[0] ?? 0;
    found = { pos, rid: chunk.rids[0] ?? -1, ...codec.encode(cells) };
  }
  // The store answers a missing key with a 404 of its own; this is for a read that raced a delete.
  if (found === null) throw new Problem('row-not-found', `No row with key "${key}".`);
  const etag = rowEtag(found.rid, found.json, found.dates);
  void reply.header('etag', etag).header('vary', varyOn(reply));
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const json = withKey(found.json, found.rid, plan.withIds ? found.pos : null);
  return reply.type('application/json; charset=utf-8').send(json);
}

function varyOn(reply: FastifyReply): string {
  const vary = reply.getHeader('vary');
  return vary === undefined ? 'accept' : `${String(vary)}, accept`;
}

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** A `/rows/<key>` write says its rows by its path: a query would choose others. */
export function refuseQuery(request: RowByKeyRequest): void {
  const [name] = Object.keys(request.query);
  if (name === undefined) return;
  throw new Problem(
    'invalid-parameter',
    `A write to /rows/<key> chooses its row by the key in the path and takes no query parameters; got "${excerpt(name)}". To choose rows otherwise, write to /api/v1/<sheet_id> with _key, _id or filters.`,
    { parameter: excerpt(name) },
  );
}
