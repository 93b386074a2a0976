import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGraphEmulator, type InjectedFailure } from '../../test/graph-emulator/index.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { problemCode } from '../harness/writers.ts';
import { target, targetLine, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case v, the Excel variant of case k: writers POST rows, each with an `Idempotency-Key`, to a
 * sheet mirrored from an Excel worksheet while Graph misbehaves at random (a 429; a 503 or a
 * reset after the write applied; a write held and applied 3 s later; a `$batch` whose answer is
 * lost) and a person inserts rows at the top. A writer sends the same row with the same key
 * again after a 409, 429, 503 or 504. Afterwards the worksheet, Sheetport's copy and the
 * answers are matched row by row: no acknowledged row missing, none twice, none written though
 * refused, and the copy equal to the worksheet.
 *
 * Run alone (after `npm run build`): `node --import tsx bench/cases/excel-chaos-case.ts
 * [writers] [seconds] [person: 1 or 0]`. One server on SQLite; two servers with a lock lost are
 * not part of it yet.
 */
export interface ExcelChaosPlan {
  writers: number;
  seconds: number;
  /** Whether a person inserts rows at the top meanwhile. */
  person: boolean;
}

export interface ExcelChaosResult {
  plan: ExcelChaosPlan;
  rows: number;
  acknowledged: number;
  unknown: number;
  refused: number;
  faults: number;
  missing: number;
  doubled: number;
  refusedButWritten: number;
  copyDiffers: number;
}

const tab = 'Chaos';
const retried = new Set([409, 429, 503, 504]);

/** The faults drawn from, each as likely. */
const faults: InjectedFailure[] = [
  { status: 429, retryAfterSeconds: 1, match: { only: 'writes' } },
  { when: 'after', status: 503, retryAfterSeconds: 1, match: { only: 'writes' } },
  { when: 'after', mode: 'reset', match: { method: 'PATCH' } },
  { mode: 'late', applyAfterMs: 3000, match: { method: 'PATCH' } },
  { when: 'after', mode: 'reset', match: { only: 'batch' } },
];

export async function excelChaosRun(plan: ExcelChaosPlan): Promise<ExcelChaosResult> {
  const dir = join(work, 'excel-chaos');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startGraphEmulator();
  let server: Server | null = null;
  try {
    const app = emulator.registerApp();
    const ref = emulator.createWorkbook({
      tenant: app.tenant,
      name: 'Chaos.xlsx',
      worksheets: [{ name: tab, rows: [['id', 'writer']] }],
    });
    server = await startEmptySheetport('sheetport, excel chaos', join(dir, 'sheetport'), {
      SHEETPORT_MICROSOFT_TENANT_ID: app.tenant,
      SHEETPORT_MICROSOFT_CLIENT_ID: app.clientId,
      SHEETPORT_MICROSOFT_CLIENT_SECRET: app.clientSecret,
      SHEETPORT_MICROSOFT_LOGIN_URL: emulator.loginUrl,
      SHEETPORT_MICROSOFT_GRAPH_URL: emulator.graphUrl,
      SHEETPORT_MICROSOFT_DEADLINE_MS: '10000',
      SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: '600',
    });
    const created = await fetch(`${server.url}/admin/v1/sheets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'chaos',
        source: { provider: 'excel', drive: ref.driveId, item: ref.itemId, tab },
      }),
    });
    if (created.status !== 201) throw new Error(`connecting answered ${created.status}`);
    const { id } = (await created.json()) as { id: string };
    const rowsUrl = `${server.url}/api/v1/${id}`;
    const stopAt = performance.now() + plan.seconds * 1000;
    // A seeded draw, so that a run can be replayed.
    let seed = 7;
    const draw = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let injected = 0;
    let person = 0;
    const chaos = (async () => {
      while (performance.now() < stopAt) {
        await sleep(150);
        if (draw() < 0.5) {
          emulator.failNext(1, faults[Math.floor(draw() * faults.length)] as InjectedFailure);
          injected++;
        }
        if (plan.person && draw() < 0.05)
          emulator.insertRows(ref, tab, 2, [[`person-${person++}`, -1]]);
      }
    })();
    const finals = new Map<string, { status: number; code: string | undefined }>();
    const writer = async (w: number) => {
      for (let seq = 0; performance.now() < stopAt; seq++) {
        const rowId = `${w}-${seq}`;
        let status = 0;
        let code: string | undefined;
        for (let attempt = 0; attempt < 8; attempt++) {
          try {
            const answer = await fetch(rowsUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': `"${rowId}"` },
              body: JSON.stringify({ id: rowId, writer: w }),
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
        finals.set(rowId, { status, code });
      }
    };
    await Promise.all(Array.from({ length: plan.writers }, (_, w) => writer(w)));
    await chaos;
    emulator.clearFaults();
    emulator.applyHeld();
    await sleep(500);
    const copy = (await (await fetch(rowsUrl)).json()) as { id: string }[];
    const sheet = emulator.values(ref, tab).slice(1);
    const count = new Map<string, number>();
    for (const row of sheet) count.set(String(row[0]), (count.get(String(row[0])) ?? 0) + 1);
    const entries = [...finals.entries()];
    const acknowledged = entries.filter(([, f]) => f.status === 201);
    const refused = entries.filter(([, f]) => f.status >= 400 && f.status !== 504);
    return {
      plan,
      rows: entries.length,
      acknowledged: acknowledged.length,
      unknown: entries.filter(([, f]) => f.status === 504 || f.status === 0).length,
      refused: refused.length,
      faults: injected,
      missing: acknowledged.filter(([rowId]) => !count.has(rowId)).length,
      doubled: [...count.entries()].filter(([rowId, n]) => n > 1 && !rowId.startsWith('person'))
        .length,
      refusedButWritten: refused.filter(([rowId]) => count.has(rowId)).length,
      copyDiffers:
        JSON.stringify(copy.map((row) => row.id)) ===
        JSON.stringify(sheet.map((row) => String(row[0])))
          ? 0
          : 1,
    };
  } finally {
    await server?.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The case as `npm run bench` runs it: its table printed, its targets answered. */
export async function excelChaosCase(
  plan: ExcelChaosPlan,
): Promise<ExcelChaosResult & { targets: TargetOutcome[] }> {
  const person = plan.person ? ' and a person inserting rows' : '';
  const title = `v. Excel chaos: ${plan.writers} writers for ${plan.seconds} s under random Graph faults${person}`;
  log(`\n${title}`);
  const result = await excelChaosRun(plan);
  print(`\n== ${title} ==`);
  print(
    `${result.rows} rows sent (each with its key, retried after 409/429/503/504): ${result.acknowledged} acknowledged, ${result.refused} refused, ${result.unknown} left unknown; ${result.faults} faults injected`,
  );
  print(
    `worksheet: ${result.missing} acknowledged rows missing, ${result.doubled} doubled, ${result.refusedButWritten} written though refused; copy ${result.copyDiffers === 0 ? 'equals' : 'DIFFERS from'} the worksheet`,
  );
  const targets = [
    target('Excel chaos: acknowledged rows missing', '=', 0, result.missing, 'count'),
    target('Excel chaos: rows doubled', '=', 0, result.doubled, 'count'),
    target('Excel chaos: rows written though refused', '=', 0, result.refusedButWritten, 'count'),
    target('Excel chaos: copy differs from the worksheet', '=', 0, result.copyDiffers, 'count'),
  ];
  return { ...result, targets };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [writers = 20, seconds = 30, person = 1] = process.argv.slice(2).map(Number);
  const { targets } = await excelChaosCase({ writers, seconds, person: person !== 0 });
  print();
  for (const outcome of targets) print(targetLine(outcome));
}
