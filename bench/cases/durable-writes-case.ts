import { existsSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport } from '../harness/cli-import.ts';
import { writeCsv } from '../harness/data.ts';
import { startDatabase, type Database } from '../harness/database.ts';
import { measure, median, requireWrk, single, type Target } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { cli, git, work } from '../harness/paths.ts';
import { buildRelease, release } from '../harness/release.ts';
import { startSheetport, type Server } from '../harness/servers.ts';
import { large, small } from '../harness/setup.ts';
import { posting } from '../harness/wrk-scripts.ts';
import { formatRate, table } from '../reports/report.ts';
import { target, targetLine, type TargetOutcome } from '../reports/targets.ts';
import { newRowBody } from './post-case.ts';

/**
 * Durable single-row POSTs, release 0.1.0 against the code as it is, side by side in one run:
 * `SHEETPORT_SYNC=full` (an fsync at every commit, before the answer), wrk, a sheet of 10,000 and
 * one of 100,000 rows, 4 and 16 connections. Each (sheet, connections) pair starts from a fresh
 * copy of the imported sheet, warms both servers up, then runs them in turn, round after round,
 * so that each round's pair saw the same machine and the same sheet size; the figure is the
 * median of the rounds. The same runs on PostgreSQL (its defaults: fsync on, synchronous_commit
 * on) are printed beside them when `BENCH_POSTGRES` is not `0`.
 *
 * Run on its own: `npm run build && node --import tsx bench/cases/durable-writes-case.ts`.
 * In `npm run bench` it is case q. `BENCH_QUICK=1` makes a smoke run: the 10,000-row sheet alone,
 * one round of 3 s; `BENCH_ROUNDS` and `BENCH_SECONDS` set the rounds exactly;
 * `BENCH_CURRENT=/path/to/dist/cli.js` measures another build as "now".
 *
 * A sheet's cell index holds the columns filters have used, and an imported sheet has none, so
 * each POST writes no index entries. `BENCH_FILTERED=email` filters each sheet on that column once
 * before the run, as a form looked up by email would be: then each POST writes one entry too
 * (0.1.0 indexed every column of every sheet).
 */
const quick = process.env.BENCH_QUICK === '1';
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const runSeconds = Number(process.env.BENCH_SECONDS ?? (quick ? 3 : 6));
const warmupSeconds = quick ? 1 : 2;
/** `BENCH_ROWS=10000` or `BENCH_CONNECTIONS=16` keep only that sheet or that concurrency. */
const sheets = [small, large].filter(
  (sheet) =>
    (process.env.BENCH_ROWS ?? (quick ? String(small.rows) : String(sheet.rows))) ===
    String(sheet.rows),
);
const filtered = process.env.BENCH_FILTERED ?? null;
const connectionCounts = [4, 16].filter(
  (c) => (process.env.BENCH_CONNECTIONS ?? String(c)) === String(c),
);

interface Version {
  label: string;
  program: string;
}

export interface DurableWriteRow {
  store: 'SQLite' | 'PostgreSQL';
  rows: number;
  connections: number;
  /** Requests per second of each round, by version label. */
  runs: Record<string, number[]>;
  /** non-2xx answers and socket errors over all rounds, by version label. */
  failures: Record<string, number>;
  /**
   * CPU the server (and PostgreSQL, for its rows) used per answered request, in ms, by version
   * label: steadier than the rates on a machine that other work shares.
   */
  cpuMs: Record<string, number | null>;
}

/** One store's runs: every (sheet, connections) pair, both versions interleaved. */
async function measureStore(
  store: DurableWriteRow['store'],
  versions: Version[],
  database: Database | null,
  dir: string,
): Promise<DurableWriteRow[]> {
  const rows: DurableWriteRow[] = [];
  let n = 0;
  for (const sheet of sheets) {
    const csv = join(dir, `${sheet.collection}.csv`);
    if (!existsSync(csv)) await writeCsv(csv, sheet.rows, sheet.seed);
    // SQLite: one import per version, copied for each pair; PostgreSQL: one database per pair.
    const seeds = new Map<Version, { dataDir: string; id: string }>();
    if (store === 'SQLite') {
      for (const version of versions) {
        const dataDir = join(dir, `seed-${n++}`);
        const { id } = await runImport(dataDir, csv, sheet.collection, {}, version.program);
        seeds.set(version, { dataDir, id });
      }
    }
    for (const connections of connectionCounts) {
      log(`\n${store}, ${sheet.rows.toLocaleString('en')} rows, ${connections} connections`);
      const servers: Server[] = [];
      try {
        const targets: Target[] = [];
        for (const version of versions) {
          const dataDir = join(dir, `run-${n++}`);
          let settings: Record<string, string> = {};
          let id: string;
          if (store === 'SQLite') {
            const seed = seeds.get(version) as { dataDir: string; id: string };
            await cp(seed.dataDir, dataDir, { recursive: true });
            id = seed.id;
          } else {
            const url = await (database as Database).create(`durable_${n++}`);
            settings = { SHEETPORT_DATABASE_URL: url };
            ({ id } = await runImport(dataDir, csv, sheet.collection, settings, version.program));
          }
          const name = `${version.label}, ${store}`;
          const server = await startSheetport(name, dataDir, id, settings, {
            program: version.program,
          });
          servers.push(server);
          if (filtered !== null) {
            const query = new URLSearchParams({ [filtered]: 'nobody@example.com' });
            const answer = await fetch(`${server.url}/api/v1/${id}?${query}`);
            if (!answer.ok) throw new Error(`${name}: filter on ${filtered}: ${answer.status}`);
          }
          targets.push(single(server, posting(`/api/v1/${id}`, newRowBody)));
        }
        const plan = { connections, threads: 1, warmupSeconds, runSeconds, runs: rounds };
        const measured = await measure(targets, plan, log, database);
        rows.push({
          store,
          rows: sheet.rows,
          connections,
          runs: Object.fromEntries(versions.map((v, i) => [v.label, measured[i]?.runs ?? []])),
          cpuMs: Object.fromEntries(
            versions.map((v, i) => {
              const m = measured[i];
              if (m === undefined || m.serverCores === null || m.requestsPerSecond === 0) {
                return [v.label, null];
              }
              const cores = m.serverCores + (m.databaseCores ?? 0);
              return [v.label, (cores / m.requestsPerSecond) * 1000];
            }),
          ),
          failures: Object.fromEntries(
            versions.map((v, i) => {
              const m = measured[i];
              return [v.label, m === undefined ? 0 : m.non2xx + m.errors + m.timeouts];
            }),
          ),
        });
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    for (const seed of seeds.values()) await rm(seed.dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** The table: each version's median and rounds, and now's median over 0.1.0's. */
function report(rows: DurableWriteRow[], versions: Version[]): string {
  const [before, after] = versions as [Version, Version];
  const header = ['store', 'sheet', 'conns'];
  for (const version of versions) header.push(`${version.label} req/s (rounds)`);
  for (const version of versions) header.push(`${version.label} CPU ms/req`);
  header.push('now / 0.1.0 (median of round ratios)');
  return table(
    header,
    rows.map((row) => {
      const cells = [row.store, `${row.rows.toLocaleString('en')} rows`, String(row.connections)];
      for (const version of versions) {
        const runs = row.runs[version.label] ?? [];
        const failed = row.failures[version.label] ?? 0;
        cells.push(
          `${formatRate(median(runs))} (${runs.map(formatRate).join(' / ')})${failed > 0 ? ` ${failed} failed` : ''}`,
        );
      }
      for (const version of versions) {
        const cpu = row.cpuMs[version.label];
        cells.push(cpu === null || cpu === undefined ? '?' : cpu.toFixed(2));
      }
      cells.push(`${nowOverRelease(row, before, after).toFixed(2)}x`);
      return cells;
    }),
  );
}

/** The median over rounds of each round's now ÷ 0.1.0: the two ran one after the other. */
function nowOverRelease(row: DurableWriteRow, before: Version, after: Version): number {
  const mine = row.runs[after.label] ?? [];
  const theirs = row.runs[before.label] ?? [];
  return median(mine.map((rate, i) => rate / (theirs[i] ?? Number.NaN)));
}

/**
 * The goal: on SQLite, at least 0.1.0's rate on both sheets at both concurrencies: the outbox
 * and the row index may not cost a durable write more than 0.1.0's whole commit.
 */
function durableTargets(rows: DurableWriteRow[], versions: Version[]): TargetOutcome[] {
  const [before, after] = versions as [Version, Version];
  return rows
    .filter((row) => row.store === 'SQLite')
    .map((row) => {
      const failed = (row.failures[before.label] ?? 0) + (row.failures[after.label] ?? 0);
      return target(
        `q. durable POST, SQLite, ${row.rows.toLocaleString('en')} rows, ${row.connections} connections: now ÷ ${release.name}`,
        '>=',
        1,
        nowOverRelease(row, before, after),
        'times',
        {
          detail: `medians ${formatRate(median(row.runs[after.label] ?? []))} ÷ ${formatRate(median(row.runs[before.label] ?? []))} req/s`,
          ...(failed > 0 ? { caveat: 'with errors: see case q' } : {}),
        },
      );
    });
}

export interface DurableWritesResult {
  rows: DurableWriteRow[];
  targets: TargetOutcome[];
}

export async function durableWritesCase(database: Database | null): Promise<DurableWritesResult> {
  requireWrk();
  const versions: Version[] = [
    { label: release.name, program: await buildRelease() },
    {
      label: `now (${git('rev-parse', '--short', 'HEAD')})`,
      program: process.env.BENCH_CURRENT ?? cli,
    },
  ];
  // `BENCH_ALSO=label=/path/to/dist/cli.js,...` adds other builds to compare, in turn with these.
  for (const extra of (process.env.BENCH_ALSO ?? '').split(',').filter(Boolean)) {
    const [label = extra, program = ''] = extra.split('=');
    versions.push({ label, program });
  }
  log(`\nq. durable single-row POSTs, ${release.name} against now`);
  const dir = join(work, 'durable-writes');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    const rows = await measureStore('SQLite', versions, null, dir);
    if (database !== null)
      rows.push(...(await measureStore('PostgreSQL', versions, database, dir)));
    print(`\n== q. Durable single-row POST: release ${release.name} against now ==`);
    print(
      `SHEETPORT_SYNC=full (SQLite), PostgreSQL with its defaults; wrk, 1 thread; each pair of servers on fresh`,
    );
    print(
      `copies of the same import, warmed up ${warmupSeconds} s, then ${rounds} rounds of ${runSeconds} s, the two servers in turn.`,
    );
    print(
      filtered === null
        ? "No column filtered on: each sheet's cell index holds no column, and a POST writes no entry."
        : `Each sheet filtered on ${filtered} once first: a POST writes its ${filtered} cell into the cell index.`,
    );
    print();
    print(report(rows, versions));
    return { rows, targets: durableTargets(rows, versions) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void (async () => {
    const database = process.env.BENCH_POSTGRES === '0' ? null : await startDatabase();
    try {
      const { targets } = await durableWritesCase(database);
      print();
      for (const outcome of targets) print(targetLine(outcome));
    } catch (error) {
      log(
        `durable-writes case failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exitCode = 1;
    } finally {
      await database?.stop();
    }
  })();
}
