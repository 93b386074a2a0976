import { Readable, type Writable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * An answer's body as the buffers it was read in, in order, sent as they are in one write (one
 * `writev`) rather than joined first. Joining a 1 MB answer copied every byte once more into
 * fresh memory, whose pages the kernel then had to fault in and the garbage collector to free.
 * Without it, reads of a whole 10,000-row sheet with the cache off took a sixth less CPU each,
 * and a sheet kept whole takes a posted row without copying what it held (BENCHMARKS.md).
 */
export interface AnswerBody {
  readonly pieces: readonly Buffer[];
  readonly bytes: number;
}

/**
 * Bodies up to this size are joined into one buffer, and so are runs of pieces up to it when they
 * pile up: the copy costs less than the pieces. It is also the size up to which a read's answer
 * is held to leave with the others of its turn (`send-together.ts`), which holds one buffer only.
 */
export const smallAnswerBytes = 64 * 1024;

/** A body kept is gathered once it holds more pieces than this. */
const mostPieces = 64;

/**
 * Pieces of this size or more are never joined, a store's blocks (16 KiB) among them: the kernel
 * copies each into the socket either way, and one more to write costs less than a copy of it.
 */
const largePiece = 4 * 1024;

const comma = Buffer.from(',');
const close = Buffer.from(']');

/** A body of these pieces, in order: empty ones left out, and all joined if it is small. */
export function bodyOf(pieces: readonly Buffer[]): AnswerBody {
  const nonEmpty = pieces.filter((piece) => piece.length > 0);
  const bytes = nonEmpty.reduce((sum, piece) => sum + piece.length, 0);
  return nonEmpty.length > 1 && bytes <= smallAnswerBytes
    ? { pieces: [Buffer.concat(nonEmpty, bytes)], bytes }
    : { pieces: nonEmpty, bytes };
}

/** The body in one buffer, as an answer sent many times goes out fastest. */
export function joined(body: AnswerBody): AnswerBody {
  return body.pieces.length <= 1
    ? body
    : { pieces: [Buffer.concat(body.pieces)], bytes: body.bytes };
}

/**
 * The body in few pieces: as it is, unless it holds more than `mostPieces`, when each run of small
 * ones is joined, never a large one.
 */
export function fewPieces(body: AnswerBody): AnswerBody {
  return body.pieces.length > mostPieces ? gathered(body) : body;
}

/**
 * The body with each run of small pieces joined, into pieces of up to about 64 KiB: separators
 * and the rows appended since it was kept are copied now and then, never the large pieces read.
 */
function gathered({ pieces, bytes }: AnswerBody): AnswerBody {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  let runBytes = 0;
  const endRun = () => {
    if (run.length > 0) out.push(run.length === 1 ? (run[0] as Buffer) : Buffer.concat(run));
    run = [];
    runBytes = 0;
  };
  for (const piece of pieces) {
    if (piece.length >= largePiece) {
      endRun();
      out.push(piece);
      continue;
    }
    run.push(piece);
    runBytes += piece.length;
    if (runBytes >= smallAnswerBytes) endRun();
  }
  endRun();
  return { pieces: out, bytes };
}

/**
 * A JSON array's body with `rows` (rows' JSON joined by commas) added at its end: the `]` that
 * ends the last piece moves after them, and nothing before it is copied.
 */
export function withRowsAppended({ pieces, bytes }: AnswerBody, rows: Buffer): AnswerBody {
  const last = pieces.at(-1) ?? Buffer.from('[]');
  const empty = bytes <= 2;
  const body = bodyOf([
    ...pieces.slice(0, -1),
    last.subarray(0, last.length - 1),
    ...(empty ? [] : [comma]),
    rows,
    close,
  ]);
  return fewPieces(body);
}

/** The body as Fastify sends it: one buffer as it is; pieces written together. */
export function payloadOf(reply: FastifyReply, { pieces, bytes }: AnswerBody): Buffer | Readable {
  const [only] = pieces;
  if (pieces.length === 1 && only !== undefined) return only;
  void reply.header('content-length', String(bytes));
  return new WrittenAtOnce(pieces);
}

/**
 * A stream of pieces already in memory that, piped, hands them all to the response at once: the
 * socket is corked while they are written, so they leave in one `writev` with the head. (A piped
 * stream would write each as it flows, pausing whenever the socket's buffer is full.) It ends
 * before the response does, as Fastify expects of a stream it pipes.
 */
class WrittenAtOnce extends Readable {
  readonly #pieces: readonly Buffer[];

  constructor(pieces: readonly Buffer[]) {
    super();
    this.#pieces = pieces;
    this.push(null);
  }

  override _read(): void {}

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    const out = destination as unknown as Writable;
    out.cork();
    for (const piece of this.#pieces) out.write(piece);
    this.once('end', () => (options?.end === false ? out.uncork() : out.end()));
    this.resume();
    return destination;
  }
}
