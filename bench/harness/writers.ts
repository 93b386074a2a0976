/**
 * The writers of the cases that write to a mirrored spreadsheet (Google, Excel): many clients,
 * each POSTing one row `{writer, seq, at}` and waiting for the answer before the next, every
 * answer recorded for the check of the spreadsheet afterwards.
 */

/** One POST: the row it carried and how it was answered. */
export interface Sent {
  writer: number;
  seq: number;
  at: string;
  /** The HTTP status, or 0 when no answer came (socket error, timeout). */
  status: number;
  /** A problem document's `code`, or the error's message when there was no answer. */
  code: string | undefined;
  startMs: number;
  endMs: number;
}

/** The header of the tab or worksheet the writers write to. */
export const writerColumns = ['writer', 'seq', 'at'];

/**
 * `writers` loops, each POSTing one row and waiting for the answer before the next, until
 * `seconds` have passed; resolves when every request has been answered.
 */
export async function runWriters(
  rowsUrl: string,
  { writers, seconds }: { writers: number; seconds: number },
): Promise<Sent[]> {
  const sent: Sent[] = [];
  const start = performance.now();
  const stopAt = start + seconds * 1000;
  // Long enough for any wait Sheetport may impose (pacing, then retries); a safety net only.
  const patienceMs = 300_000;
  const writer = async (id: number) => {
    for (let seq = 0; performance.now() < stopAt; seq++) {
      const at = new Date().toISOString();
      const startMs = performance.now() - start;
      let status = 0;
      let code: string | undefined;
      try {
        const response = await fetch(rowsUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ writer: id, seq, at }),
          signal: AbortSignal.timeout(patienceMs),
        });
        const text = await response.text();
        status = response.status;
        if (status !== 201) code = problemCode(text);
      } catch (error) {
        code = error instanceof Error ? error.message : String(error);
      }
      sent.push({ writer: id, seq, at, status, code, startMs, endMs: performance.now() - start });
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, id) => writer(id)));
  return sent;
}

/** The `code` of a problem document, if the text is one. */
export function problemCode(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Answers other than 201, counted by status (or `no answer`) and problem code. */
export function refusalCounts(sent: Sent[]): Record<string, number> {
  const refusals: Record<string, number> = {};
  for (const request of sent) {
    if (request.status === 201) continue;
    const label = `${request.status === 0 ? 'no answer' : request.status} ${request.code ?? ''}`;
    refusals[label.trim()] = (refusals[label.trim()] ?? 0) + 1;
  }
  return refusals;
}
