import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, root } from './paths.ts';
import { cpuSeconds, freePort, sheetportEnv } from './servers.ts';

/** Milliseconds from the spawn to the first answer of any kind, and to the first 200. */
export interface StartUp {
  answeringMs: number;
  readyMs: number;
  /** CPU the server had used by its first 200, user and system (Linux only; else null). */
  cpuMs: number | null;
}

/**
 * How long `sheetport serve` takes from being spawned to its first 200 answer to
 * `GET /api/v1/<sheetId>`: what a restart costs a client.
 */
export async function timeStartUp(
  dataDir: string,
  sheetId: string,
  settings: Record<string, string>,
): Promise<StartUp> {
  const port = await freePort();
  return timeFirstAnswer([cli, 'serve'], sheetportEnv(dataDir, port, settings), {
    url: `http://127.0.0.1:${port}/api/v1/${sheetId}`,
    timeoutMs: 120_000,
  });
}

/**
 * Spawns `args` under Node and asks `url` every 2 ms from that moment until it answers 200, then
 * stops it: the time a server takes to be of use.
 */
export async function timeFirstAnswer(
  args: string[],
  env: NodeJS.ProcessEnv,
  { url, timeoutMs }: { url: string; timeoutMs: number },
): Promise<StartUp> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env,
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr
    .setEncoding('utf8')
    .on('data', (text: string) => (output = (output + text).slice(-4000)));
  try {
    const deadline = started + timeoutMs;
    let answeringMs = Number.NaN;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${output}`);
      const answer = await status(url);
      const now = performance.now() - started;
      if (answer !== 0 && Number.isNaN(answeringMs)) answeringMs = now;
      if (answer === 200) {
        const cpu = cpuSeconds(child.pid);
        return { answeringMs, readyMs: now, cpuMs: cpu === null ? null : cpu * 1000 };
      }
      await sleep(2);
    }
    throw new Error(`no 200 from ${url} within ${timeoutMs / 1000} s: ${output}`);
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** The status of a GET, its body read and dropped; 0 when the connection failed. */
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
