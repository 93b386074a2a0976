import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';
import type { RowCodec, RowText } from './row-json.ts';

/**
 * The rows a push appends, with the keys they were planned with, kept beside the push's mark
 * (in the push records, under an id of their own) until the push is settled. A push whose
 * outcome the copy did not take at once (the store failed after the spreadsheet applied it, or
 * the answer was lost) is settled by a re-read, which finds its rows as rows a person added: with
 * this record, the rows of the plan that landed get the keys the write answered.
 */
export interface PushedRows {
  /** The plan (its id, as the push's tag carries it) and the rows it appends, in order. */
  plan: string;
  rows: { rid: number; cells: Cell[] }[];
}

type Kept = Record<string, (RowText & { rid: number })[]>;

/** Where a push's rows are kept: beside its own record, which a provider may keep too. */
function recordId(pushId: string): string {
  return `${pushId}/rows`;
}

/** Adds a plan's rows to the push's record (each plan of a push may append other rows). */
export function* keepPushedRows(
  db: Dialect,
  codec: RowCodec,
  sheetId: string,
  pushId: string,
  pushed: PushedRows,
): DbWork<void> {
  if (pushed.rows.length === 0) return;
  const kept = parse(yield* db.pushes.pushRecord(sheetId, recordId(pushId)));
  kept[pushed.plan] = pushed.rows.map(({ rid, cells }) => ({ rid, ...codec.encode(cells) }));
  yield* db.pushes.putPushRecord(
    sheetId,
    recordId(pushId),
    JSON.stringify(kept),
    new Date().toISOString(),
  );
}

/**
 * Keys for the rows a re-read adds, once push `pushId` is known to have landed plan `plan`: a
 * row added that reads as one the plan appended takes that row's key (each once, and only a key
 * no row of the sheet has), in order; any other row added gets a fresh key, as it would anyway.
 */
export function* pushedRowKeys(
  db: Dialect,
  sheetId: string,
  pushId: string,
  plan: string | null,
): DbWork<PushedRowKeys | null> {
  if (plan === null) return null;
  const rows = parse(yield* db.pushes.pushRecord(sheetId, recordId(pushId)))[plan];
  return rows === undefined || rows.length === 0 ? null : new PushedRowKeys(rows);
}

export class PushedRowKeys {
  readonly #left: (RowText & { rid: number })[];

  constructor(rows: (RowText & { rid: number })[]) {
    this.#left = [...rows];
  }

  /**
   * The effect with the keys of the rows it inserts, when some are the push's: `nextRid` is
   * the sheet's first free id as the effect is applied, and `taken` says whether an id is in use.
   */
  keyed(
    effect: RowEffect,
    codec: RowCodec,
    nextRid: number,
    taken: (rid: number) => boolean,
  ): RowEffect {
    if (effect.kind !== 'insert' || this.#left.length === 0) return effect;
    let fresh = nextRid;
    let matched = false;
    const rids = effect.rows.map((cells) => {
      const { json, dates } = codec.encode(cells);
      const at = this.#left.findIndex(
        (row) => row.json === json && row.dates === dates && !taken(row.rid),
      );
      if (at < 0) return fresh++;
      matched = true;
      return this.#left.splice(at, 1)[0]?.rid ?? fresh++;
    });
    return matched ? { ...effect, rids } : effect;
  }
}

function parse(record: string | null): Kept {
  if (record === null) return {};
  try {
    return JSON.parse(record) as Kept;
  } catch {
    return {};
  }
}
