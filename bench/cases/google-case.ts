import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  startGoogleSheetsEmulator,
  type EmulatorCell,
  type QuotaSettings,
  type RequestRecord,
} from '../../test/google-emulator/index.ts';
import { median, percentile } from '../harness/load.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { refusalCounts, runWriters, writerColumns, type Sent } from '../harness/writers.ts';

/**
 * Case e: many clients writing to a sheet mirrored from Google Sheets, through the Sheets API
 * emulator (in this process) with Google's per-user write quota. Every answer is recorded, and
 * afterwards the spreadsheet is checked row by row against what was sent and acknowledged.
 */

export interface GooglePlan {
  writers: number;
  /** How long new requests are started; the ones in flight then are waited for. */
  seconds: number;
  /** The emulator's write quota per principal. */
  quota: QuotaSettings;
  /** SHEETPORT_ variables beyond the connection to the emulator; empty keeps the defaults. */
  settings: Record<string, string>;
  /** Acknowledged API writes per minute to reach. */
  targetPerMinute: number;
}

const tab = 'Writes';
const header = writerColumns;

export interface Verification {
  rowsInSheet: number;
  headerKept: boolean;
  /** Acknowledged rows not in the spreadsheet. */
  missing: number;
  /** Extra copies of rows that are in the spreadsheet more than once. */
  duplicated: number;
  /** Rows in the spreadsheet that no request carried, or with cells other than sent. */
  unknown: number;
  /** Rows of requests answered with an error that are in the spreadsheet nonetheless. */
  refusedButWritten: number;
  /** Rows of requests that got no answer at all and are in the spreadsheet (allowed). */
  unansweredWritten: number;
  ok: boolean;
}

export interface GoogleResult {
  plan: GooglePlan;
  /** From the first request to the last answer, in seconds. */
  elapsedSeconds: number;
  requests: number;
  acknowledged: number;
  acknowledgedPerMinute: number;
  /** Every answer's status, counted; 0 is no answer. */
  statuses: Record<string, number>;
  /** Answers other than 201, by status and problem code. */
  refusals: Record<string, number>;
  latency: { p50Ms: number; p99Ms: number; maxMs: number };
  upstream: {
    writes: number;
    writesPerMinute: number;
    /** Write requests the emulator refused for quota. */
    quota429s: number;
    /** API requests the emulator refused for any reason (quota included). */
    rejected: number;
    reads: number;
    /** Rows carried per applied upstream write (appendCells requests per batchUpdate). */
    rowsPerWrite: { min: number; median: number; max: number };
  };
  /** Acknowledgements and applied upstream writes per slice of the run. */
  timeline: { fromSecond: number; acknowledged: number; upstreamWrites: number }[];
  verification: Verification;
  met: boolean;
}

export async function googleWriteCase(
  plan: GooglePlan,
  log: (line: string) => void,
): Promise<GoogleResult> {
  const dir = join(work, 'google');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startGoogleSheetsEmulator();
  let server: Server | null = null;
  try {
    emulator.quota = plan.quota;
    const account = emulator.serviceAccount();
    const spreadsheetId = emulator.createSpreadsheet({
      title: 'Bench writes',
      tabs: [{ title: tab, rows: [header] }],
      sharedWith: [account.client_email],
    });
    log('starting sheetport against the Google Sheets emulator');
    server = await startEmptySheetport('sheetport, google', join(dir, 'sheetport'), {
      SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
      SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
      ...plan.settings,
    });
    const sheetId = await connect(server.url, spreadsheetId);
    emulator.resetStats();
    log(`  ${plan.writers} writers for ${plan.seconds} s`);
    const startEpoch = Date.now();
    const sent = await runWriters(`${server.url}/api/v1/${sheetId}`, plan);
    const records = emulator.stats();
    const verification = verify(sent, emulator.rows(spreadsheetId, tab));
    return summarize(plan, sent, records.requests, startEpoch, verification);
  } finally {
    await server?.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Connects the tab as a user would, by spreadsheet id, and returns the new sheet's id; `settings`
 * adds to the request, e.g. `freshnessSeconds`.
 */
export async function connect(
  url: string,
  spreadsheetId: string,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const response = await fetch(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source: { provider: 'google', spreadsheetId }, ...settings }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`connecting answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

const key = (writer: unknown, seq: unknown) => `${String(writer)}:${String(seq)}`;

/** Compares the spreadsheet, row by row, with what was sent and how it was answered. */
export function verify(sent: Sent[], sheet: EmulatorCell[][]): Verification {
  const [first = [], ...rows] = sheet;
  const byKey = new Map(sent.map((request) => [key(request.writer, request.seq), request]));
  const copies = new Map<string, number>();
  let unknown = 0;
  for (const row of rows) {
    const [writer, seq, at, ...rest] = row;
    const request = byKey.get(key(writer, seq));
    if (request === undefined || request.at !== at || rest.some((cell) => cell !== null)) {
      unknown++;
      continue;
    }
    copies.set(key(writer, seq), (copies.get(key(writer, seq)) ?? 0) + 1);
  }
  let missing = 0;
  let refusedButWritten = 0;
  let unansweredWritten = 0;
  for (const request of sent) {
    const count = copies.get(key(request.writer, request.seq)) ?? 0;
    if (request.status === 201 && count === 0) missing++;
    if (request.status !== 201 && request.status !== 0 && count > 0) refusedButWritten++;
    if (request.status === 0 && count > 0) unansweredWritten++;
  }
  const duplicated = [...copies.values()].reduce((sum, count) => sum + count - 1, 0);
  const headerKept = JSON.stringify(first) === JSON.stringify(header);
  return {
    rowsInSheet: rows.length,
    headerKept,
    missing,
    duplicated,
    unknown,
    refusedButWritten,
    unansweredWritten,
    ok: headerKept && missing + duplicated + unknown + refusedButWritten === 0,
  };
}

function summarize(
  plan: GooglePlan,
  sent: Sent[],
  requests: RequestRecord[],
  startEpoch: number,
  verification: Verification,
): GoogleResult {
  const elapsedSeconds = Math.max(...sent.map((request) => request.endMs)) / 1000;
  const perMinute = (count: number) => (count / elapsedSeconds) * 60;
  const acknowledged = sent.filter((request) => request.status === 201).length;
  const statuses: Record<string, number> = {};
  for (const request of sent) statuses[request.status] = (statuses[request.status] ?? 0) + 1;
  const refusals = refusalCounts(sent);
  const latencies = sent.map((request) => request.endMs - request.startMs);
  const writes = requests.filter((request) => request.kind === 'write');
  const applied = writes.filter((request) => request.status < 400);
  const rows = applied.map((request) => request.requestCount ?? 0);
  const upstream = {
    writes: applied.length,
    writesPerMinute: perMinute(applied.length),
    quota429s: writes.filter((request) => request.status === 429).length,
    rejected: requests.filter((request) => request.kind !== 'token' && request.status >= 400)
      .length,
    reads: requests.filter((request) => request.kind === 'read' && request.status < 400).length,
    rowsPerWrite:
      rows.length === 0
        ? { min: 0, median: 0, max: 0 }
        : { min: Math.min(...rows), median: median(rows), max: Math.max(...rows) },
  };
  const acknowledgedPerMinute = perMinute(acknowledged);
  const clean = Object.keys(refusals).length === 0;
  return {
    plan,
    elapsedSeconds,
    requests: sent.length,
    acknowledged,
    acknowledgedPerMinute,
    statuses,
    refusals,
    latency: {
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: Math.max(...latencies),
    },
    upstream,
    timeline: timeline(plan, sent, applied, startEpoch, elapsedSeconds),
    verification,
    met: acknowledgedPerMinute >= plan.targetPerMinute && verification.ok && clean,
  };
}

/** Six slices of the load period, then one for the answers that came after it. */
function timeline(
  plan: GooglePlan,
  sent: Sent[],
  applied: RequestRecord[],
  startEpoch: number,
  elapsedSeconds: number,
): GoogleResult['timeline'] {
  const slice = plan.seconds / 6;
  const count = elapsedSeconds > plan.seconds ? 7 : 6;
  const slices = Array.from({ length: count }, (_, i) => ({
    fromSecond: i * slice,
    acknowledged: 0,
    upstreamWrites: 0,
  }));
  const at = (seconds: number) => slices[Math.min(count - 1, Math.floor(seconds / slice))];
  for (const request of sent) {
    const entry = request.status === 201 ? at(request.endMs / 1000) : undefined;
    if (entry !== undefined) entry.acknowledged++;
  }
  for (const request of applied) {
    const entry = at(Math.max(0, request.at - startEpoch) / 1000);
    if (entry !== undefined) entry.upstreamWrites++;
  }
  return slices;
}
