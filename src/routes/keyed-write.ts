import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/access-control.ts';
import { Problem } from '../errors/problem.ts';
import type { WriteOutcome } from '../model/write-effect.ts';
import type { IdempotencyKeys } from '../sheets/idempotency-keys.ts';
import { fateAnswer, type WriteFate } from '../sheets/write-path.ts';
import type { WriteResult } from '../model/write-effect.ts';
import type { Actor, HeldKey, KeyOutcome } from '../store/store.ts';
import { sendProblem } from './error-handler.ts';
import { parseIdempotencyKey, replayedHeader, requestFingerprint } from './idempotency-key.ts';

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A key is scoped to the credential that sent it: an API key by its id, the admin, or none. */
export function keyScope(caller: Caller): string {
  return caller.kind === 'key' ? `key:${caller.keyId}` : caller.kind;
}

export function actorOf(caller: Caller): Actor {
  return caller.kind === 'key' ? { type: 'key', id: caller.keyId } : { type: caller.kind };
}

/** POST answers 201 when it created a row (an upsert that only updated rows created none). */
export function writeStatus(method: WriteMethod, outcome: WriteOutcome): number {
  if (method !== 'POST') return 200;
  return !('updated' in outcome) || ('created' in outcome && outcome.created > 0) ? 201 : 200;
}

/**
 * Runs a row write under its `Idempotency-Key`, if it has one: a key seen before with the same
 * request answers what it answered then (marked `Idempotent-Replayed: true`) and applies nothing;
 * with another request, 422; while its first request runs, 409. Without a key, the write runs.
 */
export async function keyedWrite(
  keys: IdempotencyKeys,
  request: FastifyRequest<{ Params: { sheetId: string } }>,
  reply: FastifyReply,
  caller: Caller,
  write: (held: HeldKey | undefined) => Promise<WriteFate>,
  /** Called when the key is held by a write whose outcome waits for the sheet to be re-read. */
  inUse: () => void = () => {},
  /** The query the write means, when its path says part of it (`/rows/<key>` is `_key=<key>`). */
  meant?: string,
): Promise<FastifyReply> {
  const method = request.method as WriteMethod;
  const key = parseIdempotencyKey(request.headers['idempotency-key']);
  if (key === null) return sendFate(reply, method, await write(undefined));
  const { sheetId } = request.params;
  const query =
    meant ?? (request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
  const fingerprint = requestFingerprint({ method, sheetId, query, body: request.body });
  // Callers without a credential share one; their keys are bounded by address as well.
  const client = caller.kind === 'anonymous' ? request.ip : null;
  const claim = await keys.claim({ sheetId, scope: keyScope(caller), key }, fingerprint, client);
  switch (claim.kind) {
    case 'full':
      throw new Problem(
        'rate-limited',
        claim.limit === 'perClient'
          ? `This address holds ${claim.max} Idempotency-Keys on this sheet from the last day, the most it may; nothing was applied. Try again in ${claim.retryAfterSeconds} seconds, or send the write without a key.`
          : `This credential holds ${claim.max} Idempotency-Keys on this sheet from the last day, the most it may; nothing was applied. Try again in ${claim.retryAfterSeconds} seconds, or send the write without a key.`,
        {
          limit:
            claim.limit === 'perClient'
              ? 'idempotencyKeysPerAddress'
              : 'idempotencyKeysPerCredential',
          max: claim.max,
        },
        { 'retry-after': String(claim.retryAfterSeconds) },
      );
    case 'mismatch':
      throw new Problem(
        'idempotency-key-mismatch',
        `Idempotency-Key "${key}" was used within the last day for a different request to this sheet; a retry must repeat the method, query and body exactly. Use a new key for a new request.`,
      );
    case 'in-use':
      inUse();
      throw new Problem(
        'idempotency-key-in-use',
        `A request with Idempotency-Key "${key}" is still running, or its outcome is not known yet; nothing was applied by this one. Send it again later to get its answer.`,
        {},
        { 'retry-after': '1' },
      );
    case 'replay':
      void reply.header(replayedHeader, 'true');
      return sendOutcome(request, reply, method, claim.outcome);
  }
  const { held } = claim;
  const release = keys.hold(held);
  let fate: WriteFate;
  try {
    fate = await write(held);
  } catch (error) {
    // Thrown before the write was queued: it was refused as asked, and nothing was sent.
    release();
    await keys.end(held, error instanceof Problem ? { kind: 'refused', problem: error } : null);
    throw error;
  }
  release();
  await keys.end(held, fate);
  return sendFate(reply, method, fate);
}

function sendFate(reply: FastifyReply, method: WriteMethod, fate: WriteFate): FastifyReply {
  const answer = fateAnswer(fate);
  if (answer instanceof Problem) throw answer;
  return sendResult(reply, method, answer);
}

function sendResult(reply: FastifyReply, method: WriteMethod, result: WriteResult): FastifyReply {
  // The version this write made: a GET answering the same ETag shows exactly its effect.
  if (result.version !== undefined) void reply.header('etag', `W/"${result.version}"`);
  return reply.code(writeStatus(method, result.outcome)).send(result.outcome);
}

/** A stored answer, as it was first sent. */
function sendOutcome(
  request: FastifyRequest,
  reply: FastifyReply,
  method: WriteMethod,
  outcome: KeyOutcome,
): FastifyReply {
  if (outcome.kind === 'result') {
    return sendResult(reply, method, { ...outcome, effects: [] });
  }
  const { code, detail, extensions, headers } = outcome;
  return sendProblem(request, reply, new Problem(code, detail, extensions, headers));
}
