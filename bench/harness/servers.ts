import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cleanEnv, cli, root, work } from './paths.ts';

/** A server under test, running as a child process of the benchmark. */
export interface Server {
  name: string;
  url: string;
  /** Its peak resident set size so far, in KiB (Linux only; null elsewhere). */
  peakRssKib(): number | null;
  /**
   * Its resident memory now, in KiB: `anon`, what it allocated (heap, buffers), and `file`,
   * pages of files it maps, such as SQLite's memory-mapped database (Linux only; else null).
   */
  memoryKib(): { anon: number; file: number } | null;
  /** CPU time it has used so far, user and system, in seconds (Linux only; null elsewhere). */
  cpuSeconds(): number | null;
  /** Stops it with SIGTERM, or the signal given, and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts `args` under Node and resolves once `probePath` answers over HTTP. */
async function startServer(
  name: string,
  port: number,
  args: string[],
  env: NodeJS.ProcessEnv,
  probePath: string,
): Promise<Server> {
  // Its log goes to a file, as a server's does, rather than through this process.
  mkdirSync(join(work, 'logs'), { recursive: true });
  const logFile = join(work, 'logs', `${name.replace(/[^A-Za-z0-9]+/g, '-')}-${port}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    env,
    cwd: root,
    stdio: ['ignore', log, 'pipe'],
  });
  closeSync(log);
  let output = '';
  const keep = (text: string) => (output = (output + text).slice(-4000));
  child.stderr?.setEncoding('utf8').on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(child, `${url}${probePath}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(
      `${name} did not start: ${(error as Error).message} (log: ${logFile})\n${output}`,
    );
  }
  return {
    name,
    url,
    peakRssKib: () => peakRss(child.pid),
    memoryKib: () => memory(child.pid),
    cpuSeconds: () => cpuSeconds(child.pid),
    stop: (signal = 'SIGTERM') => stop(child, signal),
  };
}

async function waitUntilAnswering(child: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer from ${url} within 60 s`);
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  // Long enough for a CPU profile to be written on the way out.
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function peakRss(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

function memory(pid: number | undefined): { anon: number; file: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const anon = /^RssAnon:\s+(\d+) kB/m.exec(status);
    const file = /^RssFile:\s+(\d+) kB/m.exec(status);
    return anon === null || file === null ? null : { anon: Number(anon[1]), file: Number(file[1]) };
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/<pid>/stat: USER_HZ, 100 on every Linux in use. */
const ticksPerSecond = 100;

/** CPU time a process has used so far, user and system, in seconds (Linux only; else null). */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** A server that can be started afresh, on a new process, between runs. */
export interface Restartable extends Server {
  /** Stops the process at once (SIGINT) and starts a new one the same way. */
  restart(): Promise<void>;
}

/** The server `start` starts, which `restart` replaces with a new one started the same way. */
export async function restartable(start: () => Promise<Server>): Promise<Restartable> {
  let current = await start();
  return {
    get name() {
      return current.name;
    },
    get url() {
      return current.url;
    },
    peakRssKib: () => current.peakRssKib(),
    memoryKib: () => current.memoryKib(),
    cpuSeconds: () => current.cpuSeconds(),
    stop: (signal) => current.stop(signal),
    async restart() {
      await current.stop('SIGINT');
      current = await start();
    },
  };
}

/** Which Sheetport to run, and how: another build's cli.js, Node options such as --cpu-prof. */
export interface Launch {
  program?: string;
  nodeOptions?: string[];
}

/**
 * `sheetport serve` over an existing data directory, fsync at every commit; `settings` adds or
 * overrides SHEETPORT_ variables.
 */
export async function startSheetport(
  name: string,
  dataDir: string,
  probeSheetId: string,
  settings: Record<string, string> = {},
  { program = cli, nodeOptions = [] }: Launch = {},
): Promise<Server> {
  const port = await freePort();
  const env = sheetportEnv(dataDir, port, settings);
  const args = [...nodeOptions, program, 'serve'];
  return startServer(name, port, args, env, `/api/v1/${probeSheetId}?_limit=1`);
}

/** `sheetport serve` over a data directory with no sheet yet; it is probed through the admin API. */
export async function startEmptySheetport(
  name: string,
  dataDir: string,
  settings: Record<string, string> = {},
  { program = cli, nodeOptions = [] }: Launch = {},
): Promise<Server> {
  const port = await freePort();
  const env = sheetportEnv(dataDir, port, settings);
  const args = [...nodeOptions, program, 'serve'];
  return startServer(name, port, args, env, '/admin/v1/sheets');
}

export function sheetportEnv(
  dataDir: string,
  port: number,
  settings: Record<string, string>,
): NodeJS.ProcessEnv {
  return cleanEnv({
    SHEETPORT_DATA_DIR: dataDir,
    SHEETPORT_PORT: String(port),
    SHEETPORT_HOST: '127.0.0.1',
    // The log level is left at its default, info: a line per request, as a server runs.
    SHEETPORT_DEMO: 'false',
    SHEETPORT_SYNC: 'full',
    // Every request comes from 127.0.0.1: the per-address limit would measure itself, not the API.
    SHEETPORT_RATE_LIMIT_PER_ADDRESS: '0',
    SHEETPORT_RATE_LIMIT_PER_KEY: '0',
    ...settings,
  });
}

/** json-server 0.17 over a db.json file, started the way its README shows. */
export async function startJsonServer(
  name: string,
  dbPath: string,
  collection: string,
): Promise<Server> {
  const port = await freePort();
  const bin = realpathSync(join(root, 'node_modules/.bin/json-server'));
  const args = [bin, '--quiet', '--port', String(port), dbPath];
  return startServer(name, port, args, cleanEnv({}), `/${collection}/1`);
}

/** The bare node:http server, answering `body` to everything. */
export async function startBareServer(body: string): Promise<Server> {
  const port = await freePort();
  const script = join(root, 'bench/harness/bare-server.ts');
  const env = cleanEnv({ BENCH_PORT: String(port), BENCH_BODY: body });
  return startServer('bare node:http', port, ['--import', 'tsx', script], env, '/');
}
