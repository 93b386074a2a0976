import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Time to the first answer: from spawning a server to its first 200, beside json-server 0.17
 * holding 10,000 rows, in the same run, one start of each in turn. Sheetport is
 * `node dist/cli.js serve` over an empty store with default settings (its log to a file), asked
 * `GET /admin/v1/sheets`; json-server is asked `GET /people/1`. Each is asked every 2 ms from the
 * moment it is spawned. Besides the wall-clock time, the CPU time the server used until then
 * (user and system, from /proc; null elsewhere), which other work on the machine distorts less.
 * Self-contained: `node --import tsx bench/cases/start-up-case.ts` runs it alone (after
 * `npm run build`); START_UP_RUNS sets the starts of each (7 by default).
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'dist/cli.js');
/** What a start of Sheetport should take at most, to its first answer. */
export const startUpGoalMs = 700;

export interface StartUpTimes {
  name: string;
  wallMs: number[];
  cpuMs: (number | null)[];
}

export interface StartUpResult {
  runs: number;
  sheetport: StartUpTimes;
  jsonServer: StartUpTimes;
}

export async function startUpCase(runs = 7): Promise<StartUpResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sheetport-start-up-'));
  try {
    const db = join(dir, 'db.json');
    writeFileSync(db, JSON.stringify({ people: people(10_000) }, null, 2));
    const jsonServerBin = realpathSync(join(root, 'node_modules/.bin/json-server'));
    const sheetport: StartUpTimes = { name: 'sheetport serve, empty store', wallMs: [], cpuMs: [] };
    const jsonServer: StartUpTimes = { name: 'json-server, 10,000 rows', wallMs: [], cpuMs: [] };
    for (let run = 0; run < runs; run++) {
      const data = mkdtempSync(join(dir, 'data-'));
      record(
        sheetport,
        await timeFirstAnswer(
          () => [cli, 'serve'],
          (port) => ({
            SHEETPORT_DATA_DIR: data,
            SHEETPORT_PORT: String(port),
            SHEETPORT_HOST: '127.0.0.1',
            SHEETPORT_DEMO: 'false',
          }),
          '/admin/v1/sheets',
          join(data, 'server.log'),
        ),
      );
      record(
        jsonServer,
        await timeFirstAnswer(
          (port) => [jsonServerBin, '--quiet', '--port', String(port), db],
          () => ({}),
          '/people/1',
          join(dir, 'json-server.log'),
        ),
      );
    }
    return { runs, sheetport, jsonServer };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function record(times: StartUpTimes, { wallMs, cpuMs }: { wallMs: number; cpuMs: number | null }) {
  times.wallMs.push(wallMs);
  times.cpuMs.push(cpuMs);
}

async function timeFirstAnswer(
  args: (port: number) => string[],
  env: (port: number) => Record<string, string>,
  path: string,
  logFile: string,
): Promise<{ wallMs: number; cpuMs: number | null }> {
  const port = await freePort();
  writeFileSync(logFile, '');
  const log = openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, args(port), {
    env: { ...withoutSheetportSettings(), ...env(port) },
    cwd: root,
    stdio: ['ignore', log, log],
  });
  try {
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) {
        throw new Error(`exited with ${child.exitCode}: ${readFileSync(logFile, 'utf8')}`);
      }
      if ((await status(`http://127.0.0.1:${port}${path}`)) === 200) {
        return { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid) };
      }
      await sleep(2);
    }
    throw new Error(`no 200 within 60 s: ${readFileSync(logFile, 'utf8')}`);
  } finally {
    closeSync(log);
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
}

function withoutSheetportSettings(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_')),
  );
}

/** CPU time, user and system, a process has used so far (Linux: USER_HZ is 100). */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    const call = request(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    call.on('error', () => resolve(0));
    call.end();
  });
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function people(count: number) {
  const cities = ['Paris', 'Lyon', 'Nantes', 'Lille', 'Nice'];
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `Person ${i + 1}`,
    email: `person${i + 1}@example.com`,
    age: 18 + (i % 60),
    city: cities[i % cities.length],
  }));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The result as lines of text: medians, ratios, the goal, and every start. */
export function startUpLines(result: StartUpResult): string[] {
  const line = (times: StartUpTimes) => {
    const cpu = times.cpuMs.filter((ms): ms is number => ms !== null);
    return `${times.name.padEnd(30)} median ${median(times.wallMs).toFixed(0).padStart(5)} ms wall, ${
      cpu.length === 0 ? 'n/a' : `${median(cpu).toFixed(0)} ms`
    } CPU   (runs: ${times.wallMs.map((ms) => ms.toFixed(0)).join(' ')})`;
  };
  const sheetportMs = median(result.sheetport.wallMs);
  const ratio = sheetportMs / median(result.jsonServer.wallMs);
  return [
    `-- start-up: spawn to first 200, median of ${result.runs} starts each, in turn --`,
    line(result.sheetport),
    line(result.jsonServer),
    `sheetport / json-server: ${ratio.toFixed(2)}x; goal ${startUpGoalMs} ms: ${
      sheetportMs <= startUpGoalMs ? 'met' : 'NOT met'
    }`,
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.env.START_UP_RUNS ?? 7);
  const result = await startUpCase(runs);
  process.stdout.write(`${startUpLines(result).join('\n')}\n`);
}
