import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const preload = fileURLToPath(new URL('answer-guard-preload.ts', import.meta.url));
let started = 0;

/** A port that was free a moment ago: the server is told to listen on it. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** What the process has written so far, its log lines included. */
  output(): string;
  /** Kills the process with SIGKILL, as a crash or `kill -9` would, and waits until it is gone. */
  crash(): Promise<void>;
}

/**
 * Starts `sheetport serve` as its own process with these settings (a data directory or a
 * database URL) and resolves once it logs that it listens. `onSpawn` receives a function that
 * kills the process if it still runs and then fails (rejects) if any answer the process sent did
 * not match its OpenAPI document (answer-guard-preload.ts): call it when the test ends.
 */
export async function startServer(
  settings: Record<string, string>,
  onSpawn: (kill: () => Promise<void>) => void,
): Promise<RunningServer> {
  // The port was free when probed; another test's server may take it before this one listens.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await freePort(), settings, onSpawn);
    } catch (error) {
      if (attempt === 3 || !String((error as Error).message).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnPort(
  port: number,
  settings: Record<string, string>,
  onSpawn: (kill: () => Promise<void>) => void,
): Promise<RunningServer> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_')),
  );
  const answerLog = join(tmpdir(), `sheetport-answers-${process.pid}-${++started}.jsonl`);
  const args = ['--import', 'tsx', '--import', preload, 'src/cli.ts', 'serve'];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...env,
      ANSWER_GUARD_LOG: answerLog,
      SHEETPORT_LOG_LEVEL: 'info',
      ...settings,
      SHEETPORT_HOST: '127.0.0.1',
      SHEETPORT_PORT: String(port),
      SHEETPORT_DEMO: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onSpawn(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await checkAnswers(answerLog);
  });

  let output = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      output += `${line}\n`;
      const listening = /Server listening at (http:\/\/[^\s"]+)/.exec(line);
      if (listening?.[1] !== undefined) resolve(listening[1]);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`)),
    );
  });
  assert.equal(url, `http://127.0.0.1:${port}`);
  return {
    url,
    child,
    output: () => output,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
      assert.equal(child.signalCode, 'SIGKILL');
    },
  };
}

/** Throws, listing them, if the process recorded answers its document does not describe. */
async function checkAnswers(file: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '');
  await rm(file, { force: true });
  // A process killed while writing may leave its last line cut short: that line is skipped.
  const mismatches = text.split('\n').flatMap((line) => {
    try {
      return [String(JSON.parse(line))];
    } catch {
      return [];
    }
  });
  if (mismatches.length === 0) return;
  const list = [...new Set(mismatches)].map((line) => `  - ${line}`).join('\n');
  throw new Error(`answers the OpenAPI document does not describe:\n${list}`);
}
