import type { RowsAppended } from '../store/store.ts';
import { fewPieces, joined, withRowsAppended, type AnswerBody } from './answer-body.ts';

/** An answer as sent: its body, and how many rows matched before paging. */
export interface CachedAnswer {
  body: AnswerBody;
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
  /**
   * Rows appended since `body` was read, as JSON, joined into it only when a read asks for it:
   * a sheet written many times between reads is not copied at each write.
   */
  appended: string[];
  appendedBytes: number;
  /** Whether it was sent again since it was kept: it is then joined into one buffer. */
  hit: boolean;
}

/** Bytes of rows waiting to be joined that any answer may take, however small it is. */
const smallAnswer = 64 * 1024;

/** Reads remembered to admit their answers on a second ask: this many, twice over. */
const rememberedReads = 8192;

/**
 * Which reads were asked for before, whatever version of the sheet they found: the cache's
 * doorkeeper, as TinyLFU's. An answer is kept only when its read was asked for before, so a URL
 * asked once (a page size that varies, a search typed once) neither pays for being joined and
 * kept nor evicts answers that will be asked again. Two generations bound the memory: when the
 * newer fills, the older is forgotten. A read is remembered by a 31-bit hash of its sheet and
 * URL, a small integer that costs the heap nothing: keeping the URLs themselves made every miss
 * leave a string behind for the garbage collector to promote and later sweep, a cost the same
 * read with the cache off does not pay. A read asked for the first time shares its hash with one
 * remembered about once in 130,000 reads (16,384 remembered among 2^31 hashes); its answer is
 * then kept at its first ask, as if asked before.
 */
class AskedBefore {
  #current = new Set<number>();
  #previous = new Set<number>();

  /** Whether this read was asked for before; remembers that it was asked now. */
  check(at: AnswerKey): boolean {
    const key = hashOf(at.variant, hashOf(at.sheetId, 0x811c9dc5));
    if (this.#current.has(key)) return true;
    const asked = this.#previous.has(key);
    if (this.#current.size >= rememberedReads) {
      this.#previous = this.#current;
      this.#current = new Set();
    }
    this.#current.add(key);
    return asked;
  }
}

/** FNV-1a over the UTF-16 code units of `text`, from `hash`, kept to 31 bits (a V8 small integer). */
function hashOf(text: string, hash: number): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x7fffffff;
}

/**
 * Answers to reads, kept as the bytes sent, under keys that include the sheet's version: a write
 * makes every older answer unreachable, so nothing is ever served stale. Least recently used
 * answers go first once the byte budget is spent.
 *
 * While the cache is on, a read that misses while the same read is under way for another request
 * waits for that one's answer instead of reading again: after a write, the requests that all miss
 * at once are answered by one read. (The answer was read after the waiting request's sheet
 * lookup, so it is as fresh as a read of its own.) A read never asked for before is not shared:
 * the second request for it shares its read with the ones after. With the cache off, every read
 * reads.
 *
 * A commit that only appended rows does not cost the answers holding a whole sheet a new read:
 * each moves to the new version with the rows to add at its end (`appended`), joined when a read
 * next asks for it, so a sheet that a form posts to and a page reads whole stays cached between
 * posts. Once the rows waiting outweigh the answer (and 64 KiB), it is dropped instead: a new
 * read costs less.
 */
export class ReadCache {
  readonly #entries = new Map<string, Kept>();
  /** Keys of the kept answers that hold a whole sheet, by sheet. */
  readonly #wholeSheets = new Map<string, Set<string>>();
  readonly #reading = new Map<string, Promise<WholeAnswer | null>>();
  readonly #asked = new AskedBefore();
  #bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Told of every lookup, whether it found an answer. */
    private readonly onLookup: (hit: boolean) => void = () => {},
  ) {}

  /**
   * The answer under `at`: the one kept, else the one another request is reading, else the one
   * `read` reads now, shared while it is read. An answer streamed as it is read cannot be shared:
   * those waiting for it then read their own. `read` is told whether its answer is worth keeping
   * (`set`): when it holds the whole sheet, or the same read was asked for before, at this
   * version or another.
   */
  answer(at: AnswerKey, read: (keep: boolean) => Promise<ReadAnswer>): Promise<ReadAnswer> {
    const key = keyOf(at);
    const kept = this.#entries.get(key);
    this.onLookup(kept !== undefined);
    if (kept !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      if (kept.appended.length > 0) this.#join(kept);
      if (!kept.hit) {
        // Asked for again: it may well be sent many times, and one buffer goes out fastest.
        kept.hit = true;
        kept.body = joined(kept.body);
      }
      const { body, total } = kept;
      return Promise.resolve({ kind: 'whole', body, total, version: at.version });
    }
    const reading = this.#reading.get(key);
    if (reading !== undefined) return reading.then((shared) => shared ?? read(false));
    if (this.maxBytes === 0) return read(false);
    // A whole sheet's answer is kept at once: a sheet has one, it is the read a page repeats,
    // and rows appended extend it (see `appended`).
    if (!(this.#asked.check(at) || at.wholeSheet)) {
      // A read never asked for before costs what it costs with the cache off: nothing kept and
      // nothing shared. Another request asking for it meanwhile (the herd that follows a write
      // asks for reads asked before) reads once more, and shares that read with the rest.
      return read(false);
    }
    const answer = read(true);
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

  /**
   * Keeps an answer read by now, as it may be sent many times; returns the body to send, the one
   * kept if it was kept. It is kept in the pieces it was read in (see `fewPieces`), not copied: a
   * body's buffers are never written to once read, and those of a whole sheet are shared with the
   * store's pool of blocks. It is joined into one buffer at its first hit, which sends it fastest
   * (a hit on a whole 10,000-row sheet went 10% slower as 80 pieces): joined when kept, every
   * large answer asked for twice and never again cost a copy of itself (0.7 MB for that sheet),
   * and its request 0.6x the same read with the cache off.
   */
  set(at: AnswerKey, { body, total }: CachedAnswer): AnswerBody {
    const key = keyOf(at);
    // One answer may take at most a quarter of the budget, so a few huge reads cannot flush the rest.
    if (body.bytes > this.maxBytes / 4 || this.#entries.has(key)) return body;
    const kept = fewPieces(body);
    this.#keep({
      at,
      body: kept,
      total,
      readBy: performance.now(),
      appended: [],
      appendedBytes: 0,
      hit: false,
    });
    return kept;
  }

  #keep(kept: Kept): void {
    const key = keyOf(kept.at);
    // An answer moved to a version that a read has kept already (on PostgreSQL, a read can see
    // the new version before its commit's rows reach the cache) replaces it.
    const old = this.#entries.get(key);
    if (old !== undefined) this.#drop(key, old);
    this.#entries.set(key, kept);
    this.#bytes += sizeOf(kept);
    if (kept.at.wholeSheet) {
      const keys = this.#wholeSheets.get(kept.at.sheetId) ?? new Set();
      this.#wholeSheets.set(kept.at.sheetId, keys.add(key));
    }
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(oldest, old);
    }
  }

  #drop(key: string, kept: Kept): void {
    this.#entries.delete(key);
    this.#bytes -= sizeOf(kept);
    if (!kept.at.wholeSheet) return;
    const keys = this.#wholeSheets.get(kept.at.sheetId);
    keys?.delete(key);
    if (keys?.size === 0) this.#wholeSheets.delete(kept.at.sheetId);
  }

  /** Adds the rows appended at the answer's end, as a piece of its own: nothing kept is copied. */
  #join(kept: Kept): void {
    const before = sizeOf(kept);
    kept.body = withRowsAppended(kept.body, Buffer.from(kept.appended.join(',')));
    kept.appended = [];
    kept.appendedBytes = 0;
    this.#bytes += sizeOf(kept) - before;
  }

  /**
   * Rows a commit appended to a sheet, taking it from version `from` to `to`: each whole-sheet
   * answer at `from` moves to `to`, the rows to be added at its end. Only an answer in hand before
   * the commit began is sure to hold `from` exactly: a read that ended later, though its request
   * found `from`, may hold the appended rows already, and is left to age out.
   */
  appended({ sheetId, from, to, rows, began }: RowsAppended): void {
    const moved: [string, Kept][] = [];
    for (const key of this.#wholeSheets.get(sheetId) ?? []) {
      const kept = this.#entries.get(key);
      if (kept !== undefined && kept.at.version === from && kept.readBy < began) {
        moved.push([key, kept]);
      }
    }
    if (moved.length === 0) return;
    const bytes = rows.reduce((sum, row) => sum + Buffer.byteLength(row) + 1, 0);
    for (const [key, kept] of moved) {
      this.#drop(key, kept);
      if (kept.appendedBytes + bytes > Math.max(kept.body.bytes, smallAnswer)) continue;
      kept.at = { ...kept.at, version: to };
      kept.total += rows.length;
      // It holds version `to` exactly: a commit from `to` begins after this one began.
      kept.readBy = began;
      kept.appended.push(...rows);
      kept.appendedBytes += bytes;
      this.#keep(kept);
    }
  }
}

/** What an answer kept holds in memory. */
function sizeOf(kept: Kept): number {
  return kept.body.bytes + kept.appendedBytes;
}

function keyOf({ sheetId, version, variant }: AnswerKey): string {
  return `${sheetId}\n${version}\n${variant}`;
}
