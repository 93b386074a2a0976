/**
 * How case v's rows are matched: the answers each client heard against the worksheet and
 * Sheetport's copy afterwards. Every row carries its own id, so each is found exactly.
 */

/** One row a writer sent (with its key, retried), and what it finally heard. */
export interface RowFate {
  id: string;
  /** When its first attempt left, and when its 201 came (ms, performance clock). */
  firstSentMs: number;
  acknowledgedMs: number | null;
  status: number;
  code: string | undefined;
}

export interface ExcelChaosChecks {
  acknowledged: number;
  /** Answers that leave the outcome open: 504, no answer, a key still in use. */
  unknown: number;
  refused: number;
  /** Acknowledged rows not in the worksheet. */
  missing: number;
  /** Rows of the writers in the worksheet more than once. */
  doubled: number;
  /**
   * Rows of the writers that lie above a row acknowledged before they were first sent: an
   * append must land below every row acknowledged before it was sent.
   */
  misplaced: number;
  /** Rows refused (a 4xx or 503, nothing applied) that are in the worksheet. */
  refusedButWritten: number;
  /**
   * Blank rows in the worksheet: cells an append inserted whose write did not land, left above
   * rows a person's insert had pushed down (at the end they are not rows at all).
   */
  blankRows: number;
  /** 1 when Sheetport's copy does not list the worksheet's rows in its order, else 0. */
  copyDiffers: number;
  /** Final answers other than 201, by status and problem code. */
  answers: Record<string, number>;
}

/** Whether an answer leaves the row's outcome open (not a refusal, not an acknowledgement). */
export function outcomeOpen(fate: Pick<RowFate, 'status' | 'code'>): boolean {
  return fate.status === 0 || fate.status === 504 || fate.code === 'idempotency-key-in-use';
}

/**
 * `sheet`, `copy`: the ids of the worksheet's rows and of the copy's, in order (a person's rows
 * included), `null` for a blank row.
 */
export function checkExcelChaos(
  fates: RowFate[],
  sheet: (string | null)[],
  copy: (string | null)[],
  isPerson: (id: string) => boolean,
): ExcelChaosChecks {
  const count = new Map<string, number>();
  for (const id of sheet) if (id !== null) count.set(id, (count.get(id) ?? 0) + 1);
  const acknowledged = fates.filter((fate) => fate.status === 201);
  const refused = fates.filter((fate) => fate.status >= 400 && !outcomeOpen(fate));
  const byId = new Map(fates.map((fate) => [fate.id, fate]));
  // Bottom-up: the earliest acknowledgement of any row below, against each row's first send.
  let earliestBelow = Infinity;
  let misplaced = 0;
  for (let i = sheet.length - 1; i >= 0; i--) {
    const fate = byId.get(sheet[i] ?? '');
    if (fate === undefined) continue;
    if (earliestBelow < fate.firstSentMs) misplaced++;
    if (fate.acknowledgedMs !== null) earliestBelow = Math.min(earliestBelow, fate.acknowledgedMs);
  }
  return {
    acknowledged: acknowledged.length,
    unknown: fates.filter(outcomeOpen).length,
    refused: refused.length,
    missing: acknowledged.filter((fate) => !count.has(fate.id)).length,
    doubled: [...count.entries()].filter(([id, n]) => n > 1 && !isPerson(id)).length,
    misplaced,
    refusedButWritten: refused.filter((fate) => count.has(fate.id)).length,
    blankRows: sheet.filter((id) => id === null).length,
    copyDiffers: JSON.stringify(copy) === JSON.stringify(sheet) ? 0 : 1,
    answers: countAnswers(fates.filter((fate) => fate.status !== 201)),
  };
}

function countAnswers(fates: RowFate[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, code } of fates) {
    const key = status === 0 ? 'no answer' : `${status} ${code ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
