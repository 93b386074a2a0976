import type { RowsAppended } from '../store/store.ts';

/** An answer as sent: its body, and how many rows matched before paging. */
export interface CachedAnswer {
  body: Buffer;
  total: number;
}

/** What names an answer: its sheet, the version the request found, and the rest of its request. */
export interface AnswerKey {
  sheetId: string;
  version: number;
  /** The format and the query: with the sheet and the version, they decide the answer. */
  variant: string;
  /** Whether the answer is every row of the sheet, in order, as a JSON array and nothing else. */
  wholeSheet: boolean;
}

/**
 * A read's answer, at the version it was read: in one piece, which can be kept and shared, or
 * streamed as it is read (a large one), which only its own request can send.
 */
export type ReadAnswer =
  | (CachedAnswer & { kind: 'whole'; version: number })
  | { kind: 'streamed'; body: AsyncIterable<Buffer[]>; total: number; version: number };

type WholeAnswer = Extract<ReadAnswer, { kind: 'whole' }>;

interface Kept extends CachedAnswer {
  at: AnswerKey;
  /** When (`performance.now()`) the answer was in hand: its rows were read before then. */
  readBy: number;
}

const comma = Buffer.from(',');
const close = Buffer.from(']');

/**
 * Answers to reads, kept as the bytes sent, under keys that include the sheet's version: a write
 * makes every older answer unreachable, so nothing is ever served stale. Least recently used
 * answers go first once the byte budget is spent.
 *
 * While the cache is on, a read that misses while the same read is under way for another request
 * waits for that one's answer instead of reading again: after a write, the requests that all miss
 * at once are answered by one read. (The answer was read after the waiting request's sheet
 * lookup, so it is as fresh as a read of its own.) With the cache off, every read reads.
 *
 * A commit that only appended rows does not cost the answers holding a whole sheet a new read:
 * each is kept again at the new version with the rows added at its end (`appended`), so a sheet
 * that a form posts to and a page reads whole stays cached between posts.
 */
export class ReadCache {
  readonly #entries = new Map<string, Kept>();
  /** Keys of the kept answers that hold a whole sheet, by sheet. */
  readonly #wholeSheets = new Map<string, Set<string>>();
  readonly #reading = new Map<string, Promise<WholeAnswer | null>>();
  #bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Told of every lookup, whether it found an answer. */
    private readonly onLookup: (hit: boolean) => void = () => {},
  ) {}

  /**
   * The answer under `at`: the one kept, else the one another request is reading, else the one
   * `read` reads now, shared while it is read. An answer streamed as it is read cannot be shared:
   * those waiting for it then read their own.
   */
  answer(at: AnswerKey, read: () => Promise<ReadAnswer>): Promise<ReadAnswer> {
    const key = keyOf(at);
    const kept = this.#entries.get(key);
    this.onLookup(kept !== undefined);
    if (kept !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      const { body, total } = kept;
      return Promise.resolve({ kind: 'whole', body, total, version: at.version });
    }
    const reading = this.#reading.get(key);
    if (reading !== undefined) return reading.then((shared) => shared ?? read());
    if (this.maxBytes === 0) return read();
    const answer = read();
    const shared = answer.then(
      (read) => (read.kind === 'whole' ? read : null),
      () => null,
    );
    this.#reading.set(key, shared);
    void shared.then(() => {
      if (this.#reading.get(key) === shared) this.#reading.delete(key);
    });
    return answer;
  }

  /** Keeps an answer read by `readBy` (by now, if not given). */
  set(at: AnswerKey, answer: CachedAnswer, readBy = performance.now()): void {
    const key = keyOf(at);
    // One answer may take at most a quarter of the budget, so a few huge reads cannot flush the rest.
    if (answer.body.length > this.maxBytes / 4 || this.#entries.has(key)) return;
    this.#entries.set(key, { ...answer, at, readBy });
    this.#bytes += answer.body.length;
    if (at.wholeSheet) {
      const keys = this.#wholeSheets.get(at.sheetId) ?? new Set();
      this.#wholeSheets.set(at.sheetId, keys.add(key));
    }
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.body.length;
      if (old.at.wholeSheet) this.#forgetWhole(old.at.sheetId, oldest);
    }
  }

  /**
   * Rows a commit appended to a sheet, taking it from version `from` to `to`: each whole-sheet
   * answer at `from` is kept at `to` too, with the rows at its end. Only an answer in hand before
   * the commit began is sure to hold `from` exactly: a read that ended later, though its request
   * found `from`, may hold the appended rows already, and is left to age out.
   */
  appended({ sheetId, from, to, rows, began }: RowsAppended): void {
    const extended: Kept[] = [];
    for (const key of this.#wholeSheets.get(sheetId) ?? []) {
      const kept = this.#entries.get(key);
      if (kept !== undefined && kept.at.version === from && kept.readBy < began)
        extended.push(kept);
    }
    if (extended.length === 0) return;
    const added = Buffer.from(rows.join(','));
    for (const { at, body, total } of extended) {
      // `[]`, or `[` rows `]`: the new rows go before the closing bracket.
      const head = body.subarray(0, body.length - 1);
      const joined = Buffer.concat(
        body.length > 2 ? [head, comma, added, close] : [head, added, close],
      );
      this.set({ ...at, version: to }, { body: joined, total: total + rows.length }, began);
    }
  }

  #forgetWhole(sheetId: string, key: string): void {
    const keys = this.#wholeSheets.get(sheetId);
    keys?.delete(key);
    if (keys?.size === 0) this.#wholeSheets.delete(sheetId);
  }
}

function keyOf({ sheetId, version, variant }: AnswerKey): string {
  return `${sheetId}\n${version}\n${variant}`;
}
