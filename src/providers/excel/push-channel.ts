import type { Problem } from '../../errors/problem.ts';
import type { ProviderTable } from '../provider.ts';
import type { Verdict } from '../retry.ts';
import { requestCount, type Anchor, type Operation } from './excel-operations.ts';

/** What a push needs of the workbook: each request one attempt, failures thrown as they come. */
export interface PushChannel {
  openSession(deadline: number): Promise<string>;
  /** Resolves once Graph refuses the session's requests; throws when that cannot be learned. */
  closeSession(session: string, deadline: number): Promise<void>;
  read(deadline: number, session?: string): Promise<ProviderTable>;
  apply(operation: Operation, session: string, deadline: number): Promise<void>;
  /**
   * Sends operations as one `$batch`, each request depending on the one before: how many
   * operations landed whole, and the failure of the first request that did not (those after it
   * were not run). Throws when the batch as a whole failed (any first ones of it may then have
   * landed).
   */
  applyBatch(
    operations: Operation[],
    session: string,
    deadline: number,
  ): Promise<{ landed: number; failure?: unknown; namesLeft?: boolean }>;
  /**
   * In `session`, deletes the names `drop` (one already gone is fine) and adds new names for
   * `anchor` at its addresses (see append-anchors.ts), retrying within the deadline: the names
   * added (none without an anchor), whether every drop went, and how many attempts were sent
   * (each added names of its own, which a failed one may have left).
   */
  anchor(
    anchor: Anchor | null,
    drop: string[],
    session: string,
    deadline: number,
  ): Promise<{ names: { end: string; span: string } | null; dropped: boolean; attempts: number }>;
  /**
   * A push's first step when it appends, one `$batch` in `session`: new names for `anchor`,
   * then the worksheet read after them, and with `list` the workbook's names (null when that
   * failed), retrying the adds within the deadline as `anchor` does. Throws as `anchor` does.
   * Both answer no names when Graph refused them for good (400: the worksheet renamed since its
   * name was read); the worksheet is then read on its own.
   */
  anchorAndRead(
    anchor: Anchor,
    list: boolean,
    session: string,
    deadline: number,
  ): Promise<{
    names: { end: string; span: string } | null;
    attempts: number;
    table: ProviderTable;
    listed: { name?: unknown; comment?: unknown }[] | null;
  }>;
  /** Waits for the next write slot (every request after the first is a write of its own). */
  slot(): Promise<void>;
  judge(error: unknown, request: 'read' | 'write'): Verdict;
  onRetry(): void;
  outcomeUnknown(cause: Problem): Problem;
}

/**
 * Requests sent in one HTTP request when more than one is left: Graph's limit for a JSON batch.
 * Chained with `dependsOn`, a failure stops those after it, and the marks tell how far it got.
 */
export const batchLimit = 20;

/**
 * The operations from `done` on that go in the next HTTP request: as many as fit in one batch
 * (an append takes two requests, its insert and its write, or four when anchored: the deletes
 * of its two names too, and of the names it drops), at least one.
 */
export function nextChunk(operations: Operation[], done: number): Operation[] {
  const chunk: Operation[] = [];
  let requests = 0;
  for (const operation of operations.slice(done)) {
    const count = requestCount(operation);
    if (chunk.length > 0 && requests + count > batchLimit) break;
    chunk.push(operation);
    requests += count;
  }
  return chunk;
}

/**
 * Sends one chunk in `session`: alone when it is one request, else as a chained batch. Tells
 * how many of its operations landed; throws the failure of the first that did not. Answers
 * whether a name the batch was to delete may still be there.
 */
export async function sendChunk(
  channel: PushChannel,
  chunk: Operation[],
  session: string,
  deadline: number,
  landed: (count: number) => void,
): Promise<boolean> {
  const [only] = chunk;
  if (chunk.length === 1 && only !== undefined && requestCount(only) === 1) {
    await channel.apply(only, session, deadline);
    landed(1);
    return false;
  }
  const answer = await channel.applyBatch(chunk, session, deadline);
  landed(answer.landed);
  // The first that failed is judged as if it had been sent alone.
  if (answer.failure !== undefined) throw answer.failure;
  return answer.namesLeft === true;
}
