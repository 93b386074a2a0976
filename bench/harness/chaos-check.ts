import type { EmulatorCell } from '../../test/google-emulator/index.ts';
import { personRow } from './chaos-person.ts';

/**
 * Case k's check: the spreadsheet matched row by row with every attempt sent and its answer, and
 * Sheetport's copy matched with the spreadsheet position by position.
 */

/** The tab's header: each row carries a unique id and the attempt that wrote it. */
export const header = ['id', 'writer', 'seq', 'attempt', 'at'];

/** Answers that say nothing changed (README, "Errors"). */
const nothingChanged = new Set([
  'POST 429 provider-rate-limited',
  'POST 503 upstream-unavailable',
  'POST 503 store-unavailable',
]);

/** One attempt at writing one row, and its answer. */
export interface Attempt {
  id: string;
  attempt: number;
  /** HTTP status, or 0 when no answer came. */
  status: number;
  /** `status code` for an answer other than 201, or the client's error. */
  label: string;
  startMs: number;
  endMs: number;
}

export interface ChaosChecks {
  rowsSent: number;
  /** Rows one of whose attempts was answered 201. */
  acknowledged: number;
  rowsInSpreadsheet: number;
  /** Acknowledged rows that are not in the spreadsheet. */
  missing: number;
  /** Extra copies of rows in the spreadsheet, all told ... */
  extraCopies: number;
  /** ... of which the same attempt twice: one request applied more than once. */
  sameAttemptTwice: number;
  /** ... and of which two attempts both applied: a retry after an answer that did not say. */
  retriesBothApplied: number;
  /** Rows every attempt of which was answered "nothing changed", in the spreadsheet. */
  writtenThoughRefused: number;
  /** Rows in the spreadsheet that no request sent (nor the person), or with other cells. */
  unknown: number;
  /** The person's rows in the spreadsheet at the end. */
  personRows: number;
  /** PATCHes by id answered 200. */
  patchesAcknowledged: number;
  /** Of those, the ones whose row is not patched in the spreadsheet. */
  patchesMissing: number;
  /** Rows patched under another row's id: a write that chose the wrong row. */
  misplaced: number;
  /** Rows of Sheetport's copy (GET all, cache off) against the spreadsheet's, position by position. */
  copyRows: number;
  copyDifferences: number;
}

const rowKey = (row: EmulatorCell[]) => JSON.stringify(row);

/** Matches the spreadsheet against what was sent and answered, and Sheetport's copy against it. */
export function check(
  attempts: Attempt[],
  patches: Attempt[],
  sheet: EmulatorCell[][],
  copy: EmulatorCell[][],
): ChaosChecks {
  const [, ...rows] = sheet;
  /** Ids whose own row carries their patch. */
  const patchedInPlace = new Set<string>();
  let misplaced = 0;
  let personRows = 0;
  for (const [id, , , , at] of rows) {
    if (typeof at !== 'string' || !at.startsWith('patched:')) continue;
    if (at === `patched:${String(id)}`) patchedInPlace.add(String(id));
    else misplaced++;
  }
  const acknowledgedPatches = new Set(patches.filter((p) => p.status === 200).map((p) => p.id));
  const patchesMissing = [...acknowledgedPatches].filter((id) => !patchedInPlace.has(id)).length;
  const byId = new Map<string, Attempt[]>();
  for (const attempt of attempts) byId.set(attempt.id, [...(byId.get(attempt.id) ?? []), attempt]);
  const copies = new Map<string, number[]>();
  let unknown = 0;
  for (const row of rows) {
    const [id, , , attempt, , ...rest] = row;
    if (personRow(id)) {
      personRows++;
      continue;
    }
    const sent = byId.get(String(id));
    if (sent === undefined || typeof attempt !== 'number' || rest.some((cell) => cell !== null)) {
      unknown++;
      continue;
    }
    copies.set(String(id), [...(copies.get(String(id)) ?? []), attempt]);
  }
  let missing = 0;
  let acknowledged = 0;
  let writtenThoughRefused = 0;
  for (const [id, sent] of byId) {
    const landed = copies.has(id);
    if (sent.some((attempt) => attempt.status === 201)) {
      acknowledged++;
      if (!landed) missing++;
    }
    if (landed && sent.every((attempt) => nothingChanged.has(attempt.label)))
      writtenThoughRefused++;
  }
  let extraCopies = 0;
  let sameAttemptTwice = 0;
  let retriesBothApplied = 0;
  for (const landed of copies.values()) {
    extraCopies += landed.length - 1;
    const distinct = new Set(landed).size;
    sameAttemptTwice += landed.length - distinct;
    retriesBothApplied += distinct - 1;
  }
  const copyRows = copy;
  const longest = Math.max(rows.length, copyRows.length);
  let copyDifferences = 0;
  for (let i = 0; i < longest; i++) {
    const mine = copyRows[i];
    const theirs = rows[i];
    if (mine === undefined || theirs === undefined || rowKey(mine) !== rowKey(theirs)) {
      copyDifferences++;
    }
  }
  return {
    rowsSent: byId.size,
    acknowledged,
    rowsInSpreadsheet: rows.length,
    missing,
    extraCopies,
    sameAttemptTwice,
    retriesBothApplied,
    writtenThoughRefused,
    unknown,
    personRows,
    patchesAcknowledged: acknowledgedPatches.size,
    patchesMissing,
    misplaced,
    copyRows: copyRows.length,
    copyDifferences,
  };
}
