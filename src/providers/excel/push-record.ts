import { randomBytes } from 'node:crypto';
import type { Settled } from '../provider.ts';
import type { AppendBlock } from './append-blocks.ts';
import type { Area, Operation, Step } from './excel-operations.ts';
import type { ImageMark } from './push-images.ts';

/**
 * What the store keeps of an Excel push (see `PushJournal`), written before its first change is
 * sent and again with every session it opens: whichever server settles the push closes those
 * sessions, reads the worksheet, finds how far the operations got from the marks, and either
 * sends the rest or answers which writes landed.
 */
export interface ExcelPushRecord {
  version: 1;
  plan: string;
  columns: string[];
  /** Epoch ms after which the push started no request. */
  deadline: number;
  /** Every workbook session the push opened, oldest first. */
  sessions: string[];
  /** Those of its sessions known to be closed (Graph refuses their requests). */
  closed?: string[];
  operations: Operation[];
  areas: Area[];
  /** For each operation, the effects it carries. */
  effects: number[][];
  /** For each effect, the name of the write it belongs to. */
  owners: string[];
  /** marks[k]: the worksheet once operations 1..k landed (see push-images.ts). */
  marks: ImageMark[];
  /** For each operation that appends, its block of rows (see append-blocks.ts); absent in
   * records of earlier versions. */
  appends?: (AppendBlock | null)[];
  /** Operations known to have landed when the push last stopped. */
  done: number;
  /**
   * Set once a settle decided how far the push got and that it goes no further: the operations
   * that landed, and whether the next one may have landed too (its answer was lost).
   */
  decided: { landed: number; ambiguous: boolean } | null;
  /**
   * Who works on the push now: a new token each time a settle takes it over, so that the server
   * that sent it (whose saves compare the record with the one it wrote) opens no further session.
   */
  holder: string;
}

export function recordOf(
  plan: string,
  columns: string[],
  deadline: number,
  steps: Step[],
  owners: string[],
  marks: ImageMark[],
  appends: (AppendBlock | null)[],
): ExcelPushRecord {
  return {
    version: 1,
    plan,
    columns,
    deadline,
    sessions: [],
    operations: steps.map((step) => step.operation),
    areas: steps.map((step) => step.area),
    effects: steps.map((step) => step.effects),
    owners,
    marks,
    appends,
    done: 0,
    decided: null,
    holder: randomBytes(9).toString('base64url'),
  };
}

/** A record as the store gave it back; null for one this version cannot read. */
export function parseRecord(text: string): ExcelPushRecord | null {
  try {
    const record = JSON.parse(text) as ExcelPushRecord;
    return record.version === 1 ? record : null;
  } catch {
    return null;
  }
}

/**
 * Which writes of the push landed when operations 1..`landed` did and the rest did not (but for
 * operation `landed` + 1 when `ambiguous`: its answer was lost), by each write's operations: all
 * landed, the plan; none, null; else the writes none of whose operations landed, and those
 * split across the stop. A write with no operation (it changed nothing) counts with the plan.
 */
export function verdictOf(record: ExcelPushRecord, landed: number, ambiguous: boolean): Settled {
  const { operations, effects, owners, plan } = record;
  if (landed >= operations.length) return plan;
  const stepsOf = new Map<string, number[]>();
  owners.forEach((owner) => stepsOf.set(owner, stepsOf.get(owner) ?? []));
  effects.forEach((carried, step) => {
    for (const effect of carried) {
      const owner = owners[effect] ?? `#${effect}`;
      stepsOf.set(owner, [...(stepsOf.get(owner) ?? []), step + 1]);
    }
  });
  const missed: string[] = [];
  const partly: string[] = [];
  let whole = 0;
  for (const [owner, steps] of stepsOf) {
    if (steps.every((step) => step <= landed)) {
      if (steps.length > 0) whole++;
    } else if (steps.every((step) => step > landed + (ambiguous ? 1 : 0))) {
      missed.push(owner);
    } else {
      partly.push(owner);
    }
  }
  if (whole === 0 && partly.length === 0) return null;
  return { plan, missed, partly };
}
