import { mkdir, rm } from 'node:fs/promises';
import pg from 'pg';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  startGoogleSheetsEmulator,
  type EmulatorCell,
  type FaultRates,
  type RequestRecord,
} from '../../test/google-emulator/index.ts';
import { check, header, type Attempt, type ChaosChecks } from '../harness/chaos-check.ts';
import { playPerson, type PersonEdits } from '../harness/chaos-person.ts';
import { printChaos } from '../reports/chaos-report.ts';
import type { Database } from '../harness/database.ts';
import { problemCode } from '../harness/writers.ts';
import { connect } from './google-case.ts';
import { log, print } from '../harness/output.ts';
import { chaosWriteCost, printWriteCost, type WriteCost } from './chaos-write-cost.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case k: writes to a Google sheet while things go wrong. 50 writers POST one row each, one at a
 * time, while the emulator fails some of Google's answers (a 429, a 500 or a reset after the
 * write applied, a slow answer, a request held and applied 5 s later, after Sheetport gave up on
 * it) and a person edits the tab (inserts, deletes and moves rows); on PostgreSQL the database
 * also goes away for a few seconds in the middle. Every fifth writer then PATCHes the row it
 * wrote, chosen by its id, so that a write planned on stale positions would show. Writers retry
 * a row Sheetport asks them to retry (after a 504, only once a read shows it is not there). Each
 * row carries a unique id and its attempt number, so the spreadsheet, Sheetport's copy and the
 * answers can be matched exactly.
 */

export interface ChaosPlan {
  writers: number;
  /** How long new rows are started; retries and answers in flight are waited for. */
  seconds: number;
  /** How long PostgreSQL is down in the run on PostgreSQL. */
  outageSeconds: number;
}

/** About 5% each, on write requests only; the same seed replays the same draws. */
export const faultRates: FaultRates = {
  status429: 0.05,
  after500: 0.05,
  afterReset: 0.05,
  lateApply: 0.03,
  slowMs: { probability: 0.05, ms: 2000 },
  seed: 7,
};

/** Statuses after which a writer sends the same row again, after Retry-After. */
const retried = new Set([429, 503, 504]);
/** Retries of one row at most, after its first attempt. */
const maxRetries = 3;
const tab = 'Chaos';
export interface Upstream {
  writeRequests: number;
  /** Write requests whose change landed (the emulator's `applied`). */
  applied: number;
  /** Of those, the ones whose answer was lost or an error: the client could not know. */
  appliedUnacknowledged: number;
  /** Faults the emulator injected, by kind, and its quota's refusals (slow answers are not logged). */
  faults: Record<string, number>;
  /** Rows carried by applied writes (appendCells requests in applied batchUpdates). */
  rowsApplied: number;
  /**
   * From each applied write's last read before it (Sheetport's check of the tab) to the write
   * reaching the emulator: the window in which a person's edit goes unseen. Milliseconds.
   */
  checkWindowMs: { p50: number; p99: number; max: number };
}

export interface ChaosRun {
  store: 'SQLite' | 'PostgreSQL' | 'PostgreSQL, two servers';
  plan: ChaosPlan;
  /** When PostgreSQL was down, in ms from the first request; null when it was not stopped. */
  outage: { fromMs: number; toMs: number } | null;
  /** Two servers: how many times a sheet lock's connection was ended while it was held. */
  lockLosses?: number;
  elapsedMs: number;
  attempts: Attempt[];
  /** The PATCHes of rows by id, and their answers. */
  patches: Attempt[];
  /** What the person did to the tab meanwhile. */
  person: PersonEdits;
  answers: Record<string, number>;
  upstream: Upstream;
  checks: ChaosChecks;
  /** Every request the emulator saw during the run, for the timeline. */
  log: Pick<RequestRecord, 'at' | 'kind' | 'applied' | 'fault'>[];
  startEpochMs: number;
}

export interface ChaosResult {
  faultRates: FaultRates;
  runs: ChaosRun[];
  /** Requests per acknowledged PATCH with nothing going wrong, on fresh and anchored rows. */
  cost: WriteCost[];
  targets: TargetOutcome[];
}

export async function chaosCase(plan: ChaosPlan, database: Database): Promise<ChaosResult> {
  log(`\nk. chaos: ${plan.writers} writers for ${plan.seconds} s under injected faults`);
  const dir = join(work, 'chaos');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    const runs = [
      await chaosRun('SQLite', plan, dir, null),
      await chaosRun('PostgreSQL', plan, dir, database),
      await chaosRun('PostgreSQL, two servers', plan, dir, database),
    ];
    const cost = await chaosWriteCost({ writers: 20, rows: 300, seconds: plan.seconds / 2 });
    const result = { faultRates, runs, cost, targets: runs.flatMap(chaosTargets) };
    printChaos(result);
    printRequestsPerWrite(runs);
    printWriteCost(cost);
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function chaosRun(
  store: ChaosRun['store'],
  plan: ChaosPlan,
  dir: string,
  database: Database | null,
): Promise<ChaosRun> {
  log(`  ${store}`);
  const emulator = await startGoogleSheetsEmulator();
  let server: Server | null = null;
  let second: Server | null = null;
  const twoServers = store === 'PostgreSQL, two servers';
  try {
    emulator.quota = { writesPerWindow: 60, windowMs: 60_000 };
    const account = emulator.serviceAccount();
    const spreadsheetId = emulator.createSpreadsheet({
      title: 'Bench chaos',
      tabs: [{ title: tab, rows: [header] }],
      sharedWith: [account.client_email],
    });
    const settings: Record<string, string> = {
      SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
      SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
      // Sheetport's copy is read back at the end: no answer may come from a cache.
      SHEETPORT_CACHE_SIZE: '0',
    };
    if (database !== null) {
      settings.SHEETPORT_DATABASE_URL = await database.create(twoServers ? 'chaos_two' : 'chaos');
    }
    server = await startEmptySheetport(`sheetport, ${store}`, join(dir, store), settings);
    if (twoServers) {
      second = await startEmptySheetport(
        `sheetport 2, ${store}`,
        join(dir, `${store} 2`),
        settings,
      );
    }
    // A day's freshness: a read answers Sheetport's own copy unless Sheetport itself doubts it.
    const sheetId = await connect(server.url, spreadsheetId, { freshnessSeconds: 86_400 });
    emulator.resetStats();
    emulator.faultRates = faultRates;
    const startEpochMs = Date.now();
    const started = performance.now();
    const stopAt = started + plan.seconds * 1000;
    // Two servers: no outage, but the sheet lock's connection ended again and again mid-push.
    const outage = database === null || twoServers ? null : playOutage(database, plan, started);
    const losses = twoServers
      ? playLockLosses(settings.SHEETPORT_DATABASE_URL ?? '', stopAt)
      : null;
    const person = playPerson(emulator, spreadsheetId, tab, stopAt, 11);
    const urls = [server, ...(second === null ? [] : [second])].map(
      ({ url }) => `${url}/api/v1/${sheetId}`,
    );
    const { attempts, patches } = await runWriters(urls, plan, started);
    const outageWindow = outage === null ? null : await outage;
    const lockLosses = losses === null ? undefined : await losses;
    const personEdits = await person;
    const elapsedMs = performance.now() - started;
    emulator.faultRates = null;
    const records = emulator.stats().requests;
    const copy = await sheetportRows(server.url, sheetId);
    const spreadsheet = emulator.rows(spreadsheetId, tab);
    return {
      store,
      plan,
      outage: outageWindow,
      ...(lockLosses === undefined ? {} : { lockLosses }),
      elapsedMs,
      attempts,
      patches,
      person: personEdits,
      answers: countAnswers([...attempts, ...patches]),
      upstream: upstreamOf(records),
      checks: check(attempts, patches, spreadsheet, copy),
      log: records.map(({ at, kind, applied, fault }) => ({
        at,
        kind,
        applied,
        ...(fault === undefined ? {} : { fault }),
      })),
      startEpochMs,
    };
  } finally {
    await second?.stop();
    await server?.stop();
    await emulator.close();
  }
}

/**
 * Ends, every 1.5 s until `stopAt`, the database sessions holding a sheet's advisory lock (a
 * push's lock, while Google answers): the server that held it loses it mid-push, and the other
 * server may take the sheet while the first one's request is still out. Answers how many ended.
 */
async function playLockLosses(databaseUrl: string, stopAt: number): Promise<number> {
  let ended = 0;
  while (performance.now() < stopAt) {
    await sleep(1500);
    const admin = new pg.Client({ connectionString: databaseUrl });
    try {
      await admin.connect();
      const result = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
         WHERE locktype = 'advisory' AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      ended += result.rowCount ?? 0;
    } catch {
      // The database is busy or the session gone already: the next round tries again.
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
  log(`    ${ended} lock connections ended`);
  return ended;
}

/** Stops PostgreSQL in the middle of the run for `outageSeconds`, then starts it again. */
async function playOutage(
  database: Database,
  plan: ChaosPlan,
  started: number,
): Promise<{ fromMs: number; toMs: number }> {
  await sleep(((plan.seconds - plan.outageSeconds) / 2) * 1000);
  log(`    PostgreSQL down for ${plan.outageSeconds} s`);
  const fromMs = performance.now() - started;
  await database.stopServer();
  await sleep(plan.outageSeconds * 1000);
  await database.startServer();
  const toMs = performance.now() - started;
  log('    PostgreSQL back');
  return { fromMs, toMs };
}

/**
 * Each writer POSTs a new row and waits for its answer; a 429, 503 or 504 sends the same row
 * again (its attempt number one higher) after the answer's Retry-After, up to `maxRetries` times,
 * after a 504 only if a read shows the row is not there. Every fifth writer then PATCHes the row
 * it wrote, by its id, the same way. New rows start for `plan.seconds`; retries and answers in
 * flight are waited for.
 */
async function runWriters(
  urls: string[],
  plan: ChaosPlan,
  started: number,
): Promise<{ attempts: Attempt[]; patches: Attempt[] }> {
  const attempts: Attempt[] = [];
  const patches: Attempt[] = [];
  const stopAt = started + plan.seconds * 1000;
  /** Sends until an answer that is not worth another try; true once the change is there. */
  const send = async (
    url: string,
    id: string,
    log: Attempt[],
    request: (attempt: number) => Promise<Answer>,
    ok: number,
  ): Promise<boolean> => {
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      const startMs = performance.now() - started;
      const answer = await request(attempt);
      log.push({ id, attempt, ...answer, startMs, endMs: performance.now() - started });
      if (answer.status === ok) return true;
      if (!retried.has(answer.status) || attempt === maxRetries) return false;
      // After a 504 the read shows the truth: resend only what is not there.
      if (answer.status === 504 && (await rowThere(url, id, log === patches))) return true;
      await sleep(answer.retryAfterSeconds * 1000);
    }
    return false;
  };
  const writer = async (writer: number) => {
    // With two servers, writers alternate between them.
    const url = urls[writer % urls.length] as string;
    for (let seq = 0; performance.now() < stopAt; seq++) {
      const id = `w${writer}-${seq}`;
      const at = new Date().toISOString();
      const row = (attempt: number) => ({ id, writer, seq, attempt, at });
      const written = await send(url, id, attempts, (n) => post(url, 'POST', row(n)), 201);
      if (written && writer % 5 === 0) {
        const query = `${url}?id=${encodeURIComponent(id)}`;
        await send(url, id, patches, () => post(query, 'PATCH', { at: patched(id) }), 200);
      }
    }
  };
  await Promise.all(Array.from({ length: plan.writers }, (_, i) => writer(i)));
  return { attempts, patches };
}

/** The `at` a PATCH gives the row of `id`: a row holding it under another id was misplaced. */
export const patched = (id: string) => `patched:${id}`;

/** Whether the row is there (and, for a PATCH, patched), as Sheetport now serves it. */
async function rowThere(url: string, id: string, patch: boolean): Promise<boolean> {
  const response = await fetch(`${url}?id=${encodeURIComponent(id)}`);
  if (response.status !== 200) return false;
  const rows = (await response.json()) as { at?: unknown }[];
  return rows.length > 0 && (!patch || rows.some((row) => row.at === patched(id)));
}

interface Answer {
  status: number;
  label: string;
  retryAfterSeconds: number;
}

async function post(url: string, method: 'POST' | 'PATCH', row: object): Promise<Answer> {
  try {
    const response = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(row),
      // Far beyond Sheetport's 30 s deadline for Google: a safety net only.
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    const retryAfter = Number(response.headers.get('retry-after') ?? '1');
    const label =
      response.status === 201 || response.status === 200
        ? `${method} ${response.status}`
        : `${method} ${response.status} ${problemCode(text) ?? ''}`.trim();
    return {
      status: response.status,
      label,
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : 1,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const message = error instanceof Error ? error.message : String(error);
    return { status: 0, label: `no answer (${cause ?? message})`, retryAfterSeconds: 1 };
  }
}

async function sheetportRows(url: string, sheetId: string): Promise<EmulatorCell[][]> {
  // The person's last edits are seen only once Sheetport reads the tab again.
  const refreshed = await fetch(`${url}/admin/v1/sheets/${sheetId}/refresh`, { method: 'POST' });
  if (refreshed.status !== 200) throw new Error(`refresh answered ${refreshed.status}`);
  const response = await fetch(`${url}/api/v1/${sheetId}`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET all rows answered ${response.status}: ${text}`);
  const rows = JSON.parse(text) as Record<string, EmulatorCell>[];
  return rows.map((row) => header.map((column) => row[column] ?? null));
}

/** Google write requests per acknowledged write (POSTs and PATCHes) of each run. */
function printRequestsPerWrite(runs: ChaosRun[]): void {
  print(
    '\nk. Google write requests per acknowledged write (POST or PATCH), under faults and the person',
  );
  for (const { store, upstream, checks } of runs) {
    const acknowledged = checks.acknowledged + checks.patchesAcknowledged;
    const per = acknowledged === 0 ? '-' : (upstream.writeRequests / acknowledged).toFixed(4);
    print(
      `${store}: ${upstream.writeRequests} write requests / ${acknowledged} acknowledged = ${per}`,
    );
  }
}

function countAnswers(attempts: Attempt[]): Record<string, number> {
  const answers: Record<string, number> = {};
  for (const { label } of attempts) answers[label] = (answers[label] ?? 0) + 1;
  return answers;
}

function upstreamOf(records: RequestRecord[]): Upstream {
  const writes = records.filter((record) => record.kind === 'write');
  const applied = writes.filter((record) => record.applied);
  const faults: Record<string, number> = {};
  for (const { fault, status } of writes) {
    // A 429 with no fault is the emulator's own quota refusing.
    if (fault === undefined && status !== 429) continue;
    const what = fault === undefined ? 'quota 429' : fault.mode === 'status' ? status : fault.mode;
    const label =
      fault === undefined
        ? String(what)
        : fault.mode === 'late'
          ? 'held, applied 5 s later'
          : `${what} ${fault.when} applying`;
    faults[label] = (faults[label] ?? 0) + 1;
  }
  return {
    writeRequests: writes.length,
    applied: applied.length,
    appliedUnacknowledged: applied.filter(
      (record) => record.answer !== 'http' || record.status >= 400,
    ).length,
    faults,
    rowsApplied: applied.reduce((sum, record) => sum + (record.requestCount ?? 0), 0),
    checkWindowMs: checkWindows(records),
  };
}

function checkWindows(records: RequestRecord[]): ChaosRun['upstream']['checkWindowMs'] {
  const windows: number[] = [];
  let lastRead: number | null = null;
  for (const record of records) {
    if (record.kind === 'read') lastRead = record.at;
    if (record.kind === 'write' && record.applied && lastRead !== null) {
      windows.push(record.at - lastRead);
    }
  }
  windows.sort((a, b) => a - b);
  const at = (q: number) =>
    windows[Math.min(windows.length - 1, Math.floor(q * windows.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: windows.at(-1) ?? 0 };
}

function chaosTargets(run: ChaosRun): TargetOutcome[] {
  const { checks } = run;
  const where = `k. chaos, ${run.store}${run.outage === null ? '' : ' with a database outage'}${run.lockLosses === undefined ? '' : ' losing sheet locks'}`;
  return [
    target(
      `${where}: acknowledged rows missing from the spreadsheet`,
      '=',
      0,
      checks.missing,
      'count',
      {
        detail: `of ${checks.acknowledged.toLocaleString('en')} acknowledged`,
      },
    ),
    target(`${where}: rows present more than once`, '=', 0, checks.extraCopies, 'count', {
      detail: `${checks.sameAttemptTwice} of one request, ${checks.retriesBothApplied} of a retried row whose attempts both landed`,
    }),
    target(
      `${where}: rows of Sheetport's copy (GET all, cache off) that differ from the spreadsheet`,
      '=',
      0,
      checks.copyDifferences,
      'count',
      {
        detail: `${checks.copyRows.toLocaleString('en')} rows against ${checks.rowsInSpreadsheet.toLocaleString('en')}`,
      },
    ),
    target(
      `${where}: rows misplaced (a PATCH by id that changed another row)`,
      '=',
      0,
      checks.misplaced,
      'count',
      {
        detail: `of ${checks.patchesAcknowledged.toLocaleString('en')} acknowledged PATCHes; ${checks.patchesMissing} acknowledged but not in the spreadsheet`,
      },
    ),
    target(
      `${where}: rows written though every answer said nothing changed`,
      '=',
      0,
      checks.writtenThoughRefused,
      'count',
    ),
    target(
      `${where}: rows in the spreadsheet that no request sent`,
      '=',
      0,
      checks.unknown,
      'count',
    ),
  ];
}
