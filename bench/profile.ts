import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sameAnswers } from './harness/checks.ts';
import { runImport } from './harness/cli-import.ts';
import { profileLines, summarizeProfile, type ProfileSummary } from './harness/cpu-profile.ts';
import { people, writeCsv } from './harness/data.ts';
import { measure, single, type Measurement } from './harness/load.ts';
import { everyValue, mixed, numbered, posting, type Script } from './harness/wrk-scripts.ts';
import { log, print } from './harness/output.ts';
import { cli, git, work } from './harness/paths.ts';
import { buildRelease, release } from './harness/release.ts';
import { formatRate } from './reports/report.ts';
import { startSheetport } from './harness/servers.ts';
import { small } from './harness/setup.ts';
import { newRowBody } from './cases/post-case.ts';
import { formRow, readsPerWrite } from './cases/mixed-case.ts';

/**
 * `npm run bench:profile`: where the server spends its CPU, in release 0.1.0 ("before") and in the
 * code as it is ("after"), for one of two workloads. `BENCH_PROFILE=read` (the default): an
 * uncached read of a whole 10,000-row sheet, over 10 connections. `BENCH_PROFILE=write`: durable
 * single-row POSTs (`SHEETPORT_SYNC=full`, as case q) to the same sheet, over 16 connections.
 * Each version runs under `node --cpu-prof` on its own import of the same rows, is loaded for
 * about 10 s, and is stopped with SIGINT, which writes the profile; each profile is then summed
 * into self time per group of functions and per function.
 * 0.1.0 is exported from git (b90eb11) into the system's temporary directory, outside the
 * repository, and built there once with this checkout's node_modules; later runs reuse it.
 * The summaries are also saved in bench/.work/profile.json.
 */
const seconds = process.env.BENCH_QUICK === '1' ? 4 : 10;

interface Workload {
  title: string;
  description: string;
  connections: number;
  settings: Record<string, string>;
  script(path: string): Script;
}

const workloads: Record<string, Workload> = {
  read: {
    title: 'an uncached read of all 10,000 rows',
    description: `GET /api/v1/<id>?_limit=10001+n, a new n each time (SHEETPORT_CACHE_SIZE=0), by wrk over 10 connections`,
    connections: 10,
    settings: { SHEETPORT_CACHE_SIZE: '0' },
    // A limit of its own for each request, above the row count: the same rows, never cached.
    script: (path) => numbered(`${path}?_limit=`, small.rows + 1),
  },
  write: {
    title: 'durable single-row POSTs to a 10,000-row sheet',
    description: `POST /api/v1/<id> with one new row each (SHEETPORT_SYNC=full), by wrk over 16 connections`,
    connections: 16,
    settings: {},
    script: (path) => posting(path, newRowBody),
  },
  write4: {
    title: 'durable single-row POSTs over 4 connections',
    description: `POST /api/v1/<id> with one new row each (SHEETPORT_SYNC=full), by wrk -t1 over 4 connections (case w)`,
    connections: 4,
    settings: {},
    script: (path) => posting(path, newRowBody),
  },
  filter: {
    title: 'an equality filter answering one row, a new value each request, read cache on',
    description: `GET /api/v1/<id>?email=<v>, each of the sheet's emails in turn, by wrk -t1 over 16 connections (case w)`,
    connections: 16,
    settings: {},
    script: (path) =>
      everyValue(
        `${path}?email=`,
        [...people(small.rows, small.seed)].map((row) => encodeURIComponent(row.email)),
      ),
  },
  mix: {
    title: '9 GETs of all rows for each single-row POST, read cache on',
    description: `9 GET /api/v1/<id> then 1 POST, by wrk -t1 over 16 connections (case w)`,
    connections: 16,
    settings: {},
    script: (path) => mixed(path, readsPerWrite, formRow),
  },
};
const workloadName = process.env.BENCH_PROFILE ?? 'read';
const chosen = workloads[workloadName];
if (chosen === undefined) {
  throw new Error(`BENCH_PROFILE=${workloadName}: choose ${Object.keys(workloads).join(' or ')}`);
}
const workload: Workload = chosen;

interface Version {
  label: string;
  program: string;
}

interface Profiled {
  label: string;
  measurement: Measurement;
  summary: ProfileSummary;
}

async function profile(version: Version, csv: string, dir: string): Promise<Profiled> {
  log(`\n${version.label}`);
  const dataDir = join(dir, version.label);
  const profileDir = join(dir, `${version.label}-profile`);
  await mkdir(profileDir, { recursive: true });
  const imported = await runImport(dataDir, csv, small.collection, {}, version.program);
  const server = await startSheetport(version.label, dataDir, imported.id, workload.settings, {
    program: version.program,
    nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  let measurement: Measurement | undefined;
  let fromUs = 0;
  let toUs = 0;
  try {
    const path = `/api/v1/${imported.id}`;
    await sameAnswers(
      [`${server.url}${path}`, `${server.url}${path}?_limit=${small.rows + 1}`],
      small.rows,
    );
    const plan = {
      connections: workload.connections,
      threads: 1,
      warmupSeconds: 1,
      runSeconds: seconds,
      runs: 1,
    };
    fromUs = microseconds();
    [measurement] = await measure([single(server, workload.script(path))], plan, log);
    toUs = microseconds();
  } finally {
    await server.stop('SIGINT');
  }
  const [file] = (await readdir(profileDir)).filter((name) => name.endsWith('.cpuprofile'));
  if (file === undefined || measurement === undefined) {
    throw new Error(`${version.label} wrote no CPU profile in ${profileDir}`);
  }
  const summary = await summarizeProfile(join(profileDir, file), { fromUs, toUs });
  return { label: version.label, measurement, summary };
}

async function main(): Promise<void> {
  const dir = join(work, 'profile');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    const csv = join(dir, `${small.collection}.csv`);
    await writeCsv(csv, small.rows, small.seed);
    // BENCH_BEFORE=0 profiles the code as it is alone.
    const versions: Version[] = [
      ...(process.env.BENCH_BEFORE === '0'
        ? []
        : [
            { label: `before (${release.name}, ${release.commit})`, program: await buildRelease() },
          ]),
      { label: `after (${git('rev-parse', '--short', 'HEAD')})`, program: cli },
    ];
    const profiled: Profiled[] = [];
    for (const version of versions) profiled.push(await profile(version, csv, dir));
    print(`== CPU profile of ${workload.title} ==`);
    print(
      `Each server (node --cpu-prof, otherwise the bench's settings) on its own import of the rows of case b (seed 2),`,
    );
    print(`asked ${workload.description} for ${seconds} s after 1 s`);
    print(
      'of warm-up, then stopped with SIGINT. Self time is what a function spent in its own code; the summary keeps',
    );
    print(
      "the samples of the warm-up and the run (not the start-up). better-sqlite3's native calls have no frame of",
    );
    print(
      "their own, so SQLite's work counts as the self time of the Sheetport function that called it.",
    );
    for (const { label, measurement, summary } of profiled) {
      print(`\n-- ${label} --`);
      print(
        `${formatRate(measurement.requestsPerSecond)} req/s in the run (${measurement.requests.toLocaleString('en')} requests, non-2xx ${measurement.non2xx}, errors ${measurement.errors}); ` +
          `server CPU ${measurement.serverCores?.toFixed(2) ?? '?'} cores, so ${cpuMsPerRequest(measurement)} ms of CPU per request`,
      );
      if (summary.windowed) {
        const answered = measurement.ok2xxWithWarmup;
        print(
          `profile: ${(summary.busyMs / answered).toFixed(1)} ms not idle per request over warm-up and run (${answered.toLocaleString('en')} answered)`,
        );
      }
      for (const line of profileLines(summary)) print(line);
    }
    await writeFile(join(work, 'profile.json'), JSON.stringify(profiled, null, 2));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function cpuMsPerRequest(m: Measurement): string {
  if (m.serverCores === null || m.requestsPerSecond === 0) return '?';
  return ((m.serverCores / m.requestsPerSecond) * 1000).toFixed(1);
}

/** The monotonic clock that V8 stamps profile samples with, in microseconds. */
function microseconds(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

main().catch((error: unknown) => {
  log(`profile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
