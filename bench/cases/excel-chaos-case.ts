import { setTimeout as sleep } from 'node:timers/promises';
import type { InjectedFailure } from '../../test/graph-emulator/index.ts';
import type { Database } from '../harness/database.ts';
import { withExcelBench } from '../harness/excel-bench.ts';
import {
  checkExcelChaos,
  type ExcelChaosChecks,
  type RowFate,
} from '../harness/excel-chaos-check.ts';
import { playLockLosses, type LockLosses } from '../harness/excel-lock-loss.ts';
import { log, print } from '../harness/output.ts';
import { problemCode } from '../harness/writers.ts';
import { target, targetLine, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case v, the Excel variant of case k: writers POST rows, each with an `Idempotency-Key`, to a
 * sheet mirrored from an Excel worksheet while Graph misbehaves at random (a 429 or a 503 after
 * the write applied, inside a `$batch`; a `$batch` refused unanswered, or applied with its answer
 * lost, or held and applied 3 s later) and a person inserts rows at the top. A writer sends the
 * same row with the same key again after a 409, 429, 503 or 504. Afterwards the worksheet,
 * Sheetport's copy and the answers are matched row by row (see excel-chaos-check.ts).
 *
 * With two servers (on PostgreSQL, writers spread over both, a retry going to the other one),
 * a lock loss is played every 2.5 s instead of the late applies: Graph holds a push's `$batch`,
 * the lock holder's lock connection is ended, and the held request is released once another
 * push's write landed (see excel-lock-loss.ts).
 *
 * Run alone (after `npm run build`): `node --import tsx bench/cases/excel-chaos-case.ts
 * [writers] [seconds] [person: 1 or 0]`, one server on SQLite.
 */
export interface ExcelChaosPlan {
  writers: number;
  seconds: number;
  /** Whether a person inserts rows at the top meanwhile. */
  person: boolean;
}

export interface ExcelChaosResult extends ExcelChaosChecks {
  plan: ExcelChaosPlan;
  store: string;
  rows: number;
  faults: number;
  personRows: number;
  lockLosses: LockLosses | null;
}

const tab = 'Chaos';
const retried = new Set([409, 429, 503, 504]);

/** The faults drawn from, each as likely; with two servers, lock losses replace the late one. */
const faults: InjectedFailure[] = [
  { status: 429, retryAfterSeconds: 1, match: { only: 'writes' } },
  { when: 'after', status: 503, retryAfterSeconds: 1, match: { only: 'writes' } },
  { when: 'before', mode: 'reset', match: { only: 'batch' } },
  { when: 'after', mode: 'reset', match: { only: 'batch' } },
  { mode: 'late', applyAfterMs: 3000, match: { only: 'batch' } },
];

/** One server on SQLite (`database` null), or two on a fresh database of `database`. */
export async function excelChaosRun(
  plan: ExcelChaosPlan,
  database: Database | null,
): Promise<ExcelChaosResult> {
  const worksheets = [{ name: tab, rows: [['id', 'writer']] }];
  const name = database === null ? 'excel-chaos' : 'excel-chaos-two';
  return withExcelBench({ name, workbook: 'Chaos.xlsx', worksheets }, async (bench) => {
    const { emulator, ref } = bench;
    const settings: Record<string, string> = {
      SHEETPORT_MICROSOFT_DEADLINE_MS: '10000',
      SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: '600',
      // The copy is read back at the end: no answer may come from a cache.
      SHEETPORT_CACHE_SIZE: '0',
    };
    const databaseUrl = database === null ? null : await database.create('excel_chaos_two');
    if (databaseUrl !== null) settings.SHEETPORT_DATABASE_URL = databaseUrl;
    const servers = [await bench.startServer('sheetport', settings)];
    if (databaseUrl !== null) servers.push(await bench.startServer('sheetport 2', settings));
    const [first] = servers;
    if (first === undefined) throw new Error('no server');
    const id = await bench.connect(first, tab, 'chaos');
    const urls = servers.map((server) => `${server.url}/api/v1/${id}`);
    const drawn = databaseUrl === null ? faults : faults.filter((f) => f.mode !== 'late');
    const stopAt = performance.now() + plan.seconds * 1000;
    // A seeded draw, so that a run can be replayed.
    let seed = 7;
    const draw = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let injected = 0;
    let person = 0;
    const chaos = (async () => {
      while (performance.now() < stopAt) {
        await sleep(150);
        // Only when none waits: rules left unmet while pushes stall would pile up into a storm.
        if (draw() < 0.5 && emulator.pendingFaults === 0) {
          emulator.failNext(1, drawn[Math.floor(draw() * drawn.length)] as InjectedFailure);
          injected++;
        }
        if (plan.person && draw() < 0.05)
          emulator.insertRows(ref, tab, 2, [[`person-${person++}`, -1]]);
      }
    })();
    const losses = databaseUrl === null ? null : playLockLosses(emulator, databaseUrl, stopAt);
    const fates: RowFate[] = [];
    const writer = async (w: number) => {
      for (let seq = 0; performance.now() < stopAt; seq++) {
        fates.push(await sendRow(urls, w, `${w}-${seq}`));
      }
    };
    await Promise.all(Array.from({ length: plan.writers }, (_, w) => writer(w)));
    await chaos;
    const lockLosses = losses === null ? null : await losses;
    emulator.clearFaults();
    emulator.applyHeld();
    await sleep(500);
    const copy = (await (await fetch(urls[0] ?? '')).json()) as { id: string | null }[];
    const sheet = emulator
      .values(ref, tab)
      .slice(1)
      .map((row) => (row[0] === '' ? null : String(row[0])));
    const checks = checkExcelChaos(
      fates,
      sheet,
      copy.map((row) => (row.id === null ? null : String(row.id))),
      (rowId) => rowId.startsWith('person'),
    );
    const store = databaseUrl === null ? 'one server, SQLite' : 'two servers, PostgreSQL';
    return {
      plan,
      store,
      rows: fates.length,
      faults: injected,
      personRows: person,
      lockLosses,
      ...checks,
    };
  });
}

/** Sends one row with its key until an answer settles it (at most 8 attempts, 1 s apart). */
async function sendRow(urls: string[], writer: number, rowId: string): Promise<RowFate> {
  const firstSentMs = performance.now();
  let status = 0;
  let code: string | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    // A retry goes to the next server, as a load balancer may send it.
    const url = urls[(writer + attempt) % urls.length] ?? '';
    try {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `"${rowId}"` },
        body: JSON.stringify({ id: rowId, writer }),
        signal: AbortSignal.timeout(120_000),
      });
      status = answer.status;
      code = status === 201 ? undefined : problemCode(await answer.text());
    } catch (error) {
      status = 0;
      code = error instanceof Error ? error.message : String(error);
    }
    if (!retried.has(status) && status !== 0) break;
    await sleep(1000);
  }
  const acknowledgedMs = status === 201 ? performance.now() : null;
  return { id: rowId, firstSentMs, acknowledgedMs, status, code };
}

/** The case as `npm run bench` runs it: one server on SQLite, then two on PostgreSQL. */
export async function excelChaosCase(
  plan: ExcelChaosPlan,
  database: Database | null,
): Promise<{ runs: ExcelChaosResult[]; targets: TargetOutcome[] }> {
  const runs: ExcelChaosResult[] = [];
  const targets: TargetOutcome[] = [];
  for (const store of database === null ? [null] : [null, database]) {
    const person = plan.person ? ' and a person inserting rows' : '';
    const where =
      store === null ? 'one server on SQLite' : 'two servers on PostgreSQL losing the lock';
    const title = `v. Excel chaos, ${where}: ${plan.writers} writers for ${plan.seconds} s under random Graph faults${person}`;
    log(`\n${title}`);
    const result = await excelChaosRun(plan, store);
    runs.push(result);
    print(`\n== ${title} ==`);
    for (const line of resultLines(result)) print(line);
    targets.push(...resultTargets(result));
  }
  return { runs, targets };
}

function resultLines(result: ExcelChaosResult): string[] {
  const lines = [
    `${result.rows} rows sent (each with its key, retried after 409/429/503/504): ${result.acknowledged} acknowledged, ${result.refused} refused, ${result.unknown} left unknown; ${result.faults} faults injected, ${result.personRows} rows inserted by the person`,
  ];
  const answers = Object.entries(result.answers).map(([answer, n]) => `${n} × ${answer}`);
  if (answers.length > 0) lines.push(`final answers other than 201: ${answers.join(', ')}`);
  const losses = result.lockLosses;
  if (losses !== null) {
    lines.push(
      `lock losses: ${losses.held} pushes held by Graph while ${losses.ended} lock connections were ended; ${losses.releasedAfterAnotherWrite} released after another push's write landed; ${losses.landedLate} of them landed anything when released`,
    );
  }
  lines.push(
    `worksheet: ${result.missing} acknowledged rows missing, ${result.doubled} doubled, ${result.misplaced} misplaced, ${result.refusedButWritten} written though refused, ${result.blankRows} blank rows left; copy ${result.copyDiffers === 0 ? 'equals' : 'DIFFERS from'} the worksheet`,
  );
  return lines;
}

function resultTargets(result: ExcelChaosResult): TargetOutcome[] {
  const where = result.lockLosses === null ? 'Excel chaos' : 'Excel chaos, two servers';
  return [
    target(`${where}: acknowledged rows missing`, '=', 0, result.missing, 'count'),
    target(`${where}: rows doubled`, '=', 0, result.doubled, 'count'),
    target(`${where}: rows misplaced`, '=', 0, result.misplaced, 'count'),
    target(`${where}: rows written though refused`, '=', 0, result.refusedButWritten, 'count'),
    target(`${where}: copy differs from the worksheet`, '=', 0, result.copyDiffers, 'count'),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [writers = 20, seconds = 30, person = 1] = process.argv.slice(2).map(Number);
  const { targets } = await excelChaosCase({ writers, seconds, person: person !== 0 }, null);
  print();
  for (const outcome of targets) print(targetLine(outcome));
}
