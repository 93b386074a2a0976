import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDatabase, type Database } from '../harness/database.ts';

/**
 * What event streams cost a server: the latency of a small GET with no stream open and with
 * 2,000 idle streams (on one sheet, and spread over 100 sheets), how long a write takes to reach
 * all of them, and the server's memory with clients that resume from the first event of ~29 MB
 * of history and never read. Runs `sheetport serve` from this checkout, or from the `cli.ts`
 * that BENCH_SHEETPORT_CLI names (to measure another version the same way), on SQLite, or on
 * a throwaway PostgreSQL with BENCH_POSTGRES=1.
 * Usage: node --import tsx bench/cases/event-streams-case.ts
 */
const cli =
  process.env.BENCH_SHEETPORT_CLI ?? new URL('../../src/cli.ts', import.meta.url).pathname;
const idleStreams = Number(process.env.BENCH_IDLE_STREAMS ?? 2000);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

interface Server {
  url: string;
  port: number;
  process: ChildProcess;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

async function start(dataDir: string, databaseUrl: string | null): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
    env: {
      PATH: process.env.PATH,
      SHEETPORT_DATA_DIR: dataDir,
      SHEETPORT_PORT: String(port),
      SHEETPORT_LOG_LEVEL: 'warn',
      SHEETPORT_DEMO: 'false',
      SHEETPORT_RATE_LIMIT_PER_ADDRESS: '0',
      SHEETPORT_EVENT_STREAMS_PER_ADDRESS: String(idleStreams + 10),
      SHEETPORT_EVENT_STREAMS_MAX: String(idleStreams + 10),
      ...(databaseUrl === null ? {} : { SHEETPORT_DATABASE_URL: databaseUrl }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try {
      if ((await send('GET', `${url}/healthz`)).status === 200) break;
    } catch {
      if (i > 200) throw new Error('the server did not start');
    }
    await sleep(100);
  }
  return { url, port, process: child };
}

function send(
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function newSheet(server: Server, name: string, rows: object[]): Promise<string> {
  const made = await send('POST', `${server.url}/admin/v1/sheets`, {
    name,
    columns: ['name', 'note'],
    rows,
  });
  if (made.status !== 201) throw new Error(made.text);
  const { id } = JSON.parse(made.text) as { id: string };
  await send('PATCH', `${server.url}/admin/v1/sheets/${id}`, { access: 'public-read' });
  return id;
}

/** CPU seconds a process has used so far (user and system). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function rssMib(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Sequential small GETs: mean, p50 and p99 in ms. */
async function latency(server: Server, id: string, count = 2000) {
  const times: number[] = [];
  for (let i = 0; i < count + 50; i += 1) {
    const at = performance.now();
    const answer = await send('GET', `${server.url}/api/v1/${id}?_limit=20`);
    if (answer.status !== 200) throw new Error(answer.text);
    if (i >= 50) times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.floor(q * (times.length - 1))] ?? 0).toFixed(2);
  const mean = (times.reduce((a, b) => a + b, 0) / times.length).toFixed(2);
  return `mean ${mean} ms, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

/** A raw stream: resolves once its headers came; `seen` counts the events it has read. */
async function openStream(port: number, id: string, lastEventId?: string, read = true) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const state = { socket, seen: 0, text: '' };
  const headers = lastEventId === undefined ? '' : `Last-Event-ID: ${lastEventId}\r\n`;
  socket.write(`GET /api/v1/${id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  if (!read) {
    socket.pause();
    return state;
  }
  socket.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: string) => {
      if (state.text.length < 4096) state.text += chunk;
      state.seen += chunk.split('\nevent: rows.').length - 1;
      if (state.text.includes('\r\n\r\n')) resolve();
    });
    socket.on('error', reject);
  });
  if (!state.text.startsWith('HTTP/1.1 200')) throw new Error(state.text.slice(0, 300));
  return state;
}

async function idleCase(server: Server, database: Database | null, sheets: number): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < sheets; i += 1) {
    ids.push(await newSheet(server, `idle ${i}`, rows(i === 0 ? 1000 : 5, 20)));
  }
  const [probe] = ids as [string];
  const before = await latency(server, probe);
  const rssBefore = await rssMib(server.process.pid ?? 0);
  const streams: Awaited<ReturnType<typeof openStream>>[] = [];
  for (let i = 0; i < idleStreams; i += 1) {
    streams.push(await openStream(server.port, ids[i % ids.length] as string));
  }
  await sleep(2000);
  // What the idle streams cost by themselves, with nothing else going on.
  const pid = server.process.pid ?? 0;
  const [cpuAt, dbAt] = [await cpuSeconds(pid), database?.cpuSeconds() ?? 0];
  await sleep(5000);
  const idleCpu = `server ${((((await cpuSeconds(pid)) - cpuAt) / 5) * 100).toFixed(1)}% of a core${database === null ? '' : `, PostgreSQL ${((((database.cpuSeconds() ?? 0) - dbAt) / 5) * 100).toFixed(0)}%`}`;
  const during = await latency(server, probe);
  const rssDuring = await rssMib(server.process.pid ?? 0);
  // A write to the first sheet reaches every stream of it.
  const readers = streams.filter((_, i) => i % ids.length === 0);
  const at = performance.now();
  await send('POST', `${server.url}/api/v1/${probe}`, { name: 'new', note: 'x' });
  while (readers.some((stream) => stream.seen < 1)) await sleep(5);
  const fanOut = (performance.now() - at).toFixed(0);
  console.log(
    `${idleStreams} idle streams on ${sheets} sheet(s): GET ?_limit=20 before: ${before}; during: ${during}; CPU while idle: ${idleCpu}; server RSS ${rssBefore.toFixed(0)} -> ${rssDuring.toFixed(0)} MiB; a write reached all ${readers.length} streams of its sheet in ${fanOut} ms`,
  );
  for (const stream of streams) stream.socket.destroy();
  await sleep(500);
}

function rows(count: number, width: number): object[] {
  return Array.from({ length: count }, (_, n) => ({ name: `row ${n}`, note: 'x'.repeat(width) }));
}

async function stalledCase(server: Server): Promise<void> {
  const id = await newSheet(server, 'history', []);
  const first = await openStream(server.port, id);
  await send('POST', `${server.url}/api/v1/${id}`, rows(180, 5000));
  while (!first.text.includes('\nid: ')) await sleep(5);
  const firstId = /\nid: (\S+)/.exec(first.text)?.[1] as string;
  first.socket.destroy();
  for (let i = 1; i < 32; i += 1) await send('POST', `${server.url}/api/v1/${id}`, rows(180, 5000));
  const pid = server.process.pid ?? 0;
  const figures = [`idle ${(await rssMib(pid)).toFixed(0)}`];
  const stalled: Socket[] = [];
  for (const [label, lastId] of [
    ['unknown id', 'x'],
    ['unknown id', 'y'],
    ['unknown id', 'z'],
    ['first id', firstId],
    ['first id', firstId],
    ['first id', firstId],
  ] as const) {
    stalled.push((await openStream(server.port, id, lastId, false)).socket);
    await sleep(4000);
    figures.push(`${label} ${(await rssMib(pid)).toFixed(0)}`);
  }
  console.log(
    `~29 MB of history, clients that never read, server RSS in MiB after each: ${figures.join(' -> ')}`,
  );
  for (const socket of stalled) socket.destroy();
}

const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-streams-'));
const database = process.env.BENCH_POSTGRES === '1' ? await startDatabase() : null;
const server = await start(dataDir, (await database?.create('streams')) ?? null);
try {
  console.log(`server: ${cli} on ${database === null ? 'SQLite' : 'PostgreSQL'}`);
  await idleCase(server, database, 1);
  await idleCase(server, database, 100);
  await stalledCase(server);
} finally {
  server.process.kill('SIGINT');
  await once(server.process, 'exit');
  await rm(dataDir, { recursive: true, force: true });
  await database?.stop();
  agent.destroy();
}
