import { mkdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { runImport, type ImportResult } from '../harness/cli-import.ts';
import { people, writeCsv, type Person } from '../harness/data.ts';
import type { Database } from '../harness/database.ts';
import { importSeed, type MeasuredImport } from './import-case.ts';
import { log, print } from '../harness/output.ts';
import { mib, table } from '../reports/report.ts';
import { startSheetport } from '../harness/servers.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case i: GET all rows of a very large sheet. Case d's files and one of twice the rows, each
 * imported into SQLite and into PostgreSQL, are served by a fresh server each (so that its peak
 * memory is that read's), and read once by a plain node:http client that times the first byte
 * and reads the whole body, counting its rows.
 */

export interface StreamRead {
  store: 'SQLite' | 'PostgreSQL';
  rows: number;
  /** From sending the request to its headers, to the first byte of the body, to the last. */
  headersMs: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  rowsRead: number;
  lastRowRight: boolean;
  /** The server's VmHWM just after it started, and after the read. */
  startedPeakKib: number | null;
  peakKib: number | null;
  /**
   * The most anonymous memory (RssAnon: heap, buffers) the server held, sampled every 10 ms
   * during the read; VmHWM also counts the pages of a memory-mapped database file it touched.
   */
  peakAnonKib: number | null;
}

export interface StreamResult {
  reads: StreamRead[];
  /** `sheetport import` into PostgreSQL, per size: not a target, printed beside case d. */
  postgresImports: ImportResult[];
  targets: TargetOutcome[];
}

interface BodyRead {
  headersMs: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  rows: number;
  lastRow: unknown;
}

const openBrace = 0x7b;

/**
 * Reads a whole JSON array of rows as it arrives, never holding it. The generated cells hold no
 * braces, so each `{` opens a row, and the last row is the text from the last `{` to the `]`.
 */
function readAll(url: string): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const since = () => performance.now() - started;
    const call = request(url, { agent: false }, (response) => {
      const headersMs = since();
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url} answered ${response.statusCode}`));
        return;
      }
      let firstByteMs = Number.NaN;
      let bytes = 0;
      let rows = 0;
      let tail = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = since();
        bytes += chunk.length;
        for (let i = chunk.indexOf(openBrace); i !== -1; i = chunk.indexOf(openBrace, i + 1))
          rows++;
        tail = Buffer.concat([tail, chunk.subarray(-4096)]).subarray(-4096);
      });
      response.on('end', () => {
        const text = tail.toString('utf8');
        const last = text.slice(text.lastIndexOf('{'), text.lastIndexOf(']'));
        let lastRow: unknown = null;
        try {
          lastRow = JSON.parse(last);
        } catch {
          // Left null: the check below fails.
        }
        resolve({ headersMs, firstByteMs, totalMs: since(), bytes, rows, lastRow });
      });
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
}

function lastPerson(rows: number): Person | undefined {
  let last: Person | undefined;
  for (const row of people(rows, importSeed)) last = row;
  return last;
}

async function serveAndRead(
  store: StreamRead['store'],
  dataDir: string,
  sheetId: string,
  rows: number,
  settings: Record<string, string>,
): Promise<StreamRead> {
  log(`  ${store}: GET all ${rows.toLocaleString('en')} rows`);
  const server = await startSheetport(`sheetport, ${store}`, dataDir, sheetId, settings);
  try {
    const startedPeakKib = server.peakRssKib();
    let peakAnonKib = server.memoryKib()?.anon ?? null;
    const sampler = setInterval(() => {
      const anon = server.memoryKib()?.anon;
      if (anon !== undefined && peakAnonKib !== null) peakAnonKib = Math.max(peakAnonKib, anon);
    }, 10);
    const read = await readAll(`${server.url}/api/v1/${sheetId}`).finally(() =>
      clearInterval(sampler),
    );
    const peakKib = server.peakRssKib();
    return {
      store,
      rows,
      headersMs: read.headersMs,
      firstByteMs: read.firstByteMs,
      totalMs: read.totalMs,
      bytes: read.bytes,
      rowsRead: read.rows,
      lastRowRight: isDeepStrictEqual(read.lastRow, lastPerson(rows)),
      startedPeakKib,
      peakKib,
      peakAnonKib,
    };
  } finally {
    await server.stop();
  }
}

/** A sheet to serve: its CSV file, and the SQLite data directory it was imported into. */
interface Served {
  rows: number;
  csv: string;
  dataDir: string;
  id: string;
}

export async function streamCase(
  imports: MeasuredImport[],
  database: Database,
  dir: string,
): Promise<StreamResult> {
  const title = 'i. GET all rows of a very large sheet, streamed';
  log(`\n${title}`);
  // The same rows are imported in several encodings; one of each size is enough to serve.
  const served: Served[] = imports
    .filter((imported) => imported.encoding === 'utf-8')
    .map(({ result, csv, dataDir }) => ({ rows: result.rowCount, csv, dataDir, id: result.id }));
  const reads: StreamRead[] = [];
  const postgresImports: ImportResult[] = [];
  await mkdir(dir, { recursive: true });
  try {
    // One more sheet, twice the largest: memory that is flat does not grow from one to the other.
    const rows = 2 * Math.max(...served.map((sheet) => sheet.rows));
    const csv = join(dir, `people-${rows}.csv`);
    const dataDir = join(dir, 'sqlite');
    log(`  generating and importing a ${rows.toLocaleString('en')}-row CSV`);
    await writeCsv(csv, rows, importSeed);
    const extra = await runImport(dataDir, csv, `people_${rows}`);
    served.push({ rows, csv, dataDir, id: extra.id });

    for (const sheet of served) {
      reads.push(await serveAndRead('SQLite', sheet.dataDir, sheet.id, sheet.rows, {}));
    }
    const url = await database.create('stream');
    const postgres = { SHEETPORT_DATABASE_URL: url };
    try {
      for (const sheet of served) {
        log(`  importing ${sheet.rows.toLocaleString('en')} rows into PostgreSQL`);
        const result = await runImport(join(dir, 'stream-import'), sheet.csv, 'stream', postgres);
        postgresImports.push(result);
        const serveDir = join(dir, 'stream-serve');
        reads.push(
          await serveAndRead('PostgreSQL', serveDir, result.id, result.rowCount, postgres),
        );
      }
    } finally {
      await database.drop('stream');
    }
  } finally {
    // So that millions of rows do not weigh on the cases after this one.
    await rm(dir, { recursive: true, force: true });
  }
  const targets = streamTargets(reads);

  print(`\n== ${title} ==`);
  for (const line of [
    "Case d's CSV files (seed 3) in their SQLite data directories, and a file of twice the largest's rows (the same",
    'generator and seed) imported into one of its own; all imported again into a database of their own on the',
    'PostgreSQL. Each sheet served by a fresh `sheetport serve` (default settings), and read once by a node:http',
    'client: GET /api/v1/<id>, no parameters. first byte: from sending the request to the first byte of the body;',
    'all: to the last byte. The client counts the rows as they arrive and checks the last one against the generator.',
    "peak RSS: the server's VmHWM (/proc/<pid>/status) after it started, and after the read.",
    'peak anon: the most anonymous memory (RssAnon: heap and buffers) the server held during the read, sampled every',
    "10 ms. Buffers sent are freed by V8's garbage collector, which runs for them once about 64 MiB are held: a read",
    'of less never reaches that point, and one of more levels off there.',
  ]) {
    print(line);
  }
  print();
  print(streamTable(reads));
  print();
  print(
    'Imports into PostgreSQL for this case (wall-clock of the whole `sheetport import` process):',
  );
  for (const result of postgresImports) {
    print(
      `  ${result.rowCount.toLocaleString('en')} rows: ${(result.elapsedMs / 1000).toFixed(1)} s, peak RSS ${mib(result.peakRssKib * 1024)}`,
    );
  }
  return { reads, postgresImports, targets };
}

function streamTable(reads: StreamRead[]): string {
  const kib = (value: number | null) => (value === null ? '?' : mib(value * 1024));
  const ms = (value: number) => `${value.toFixed(value < 100 ? 1 : 0)} ms`;
  const rows = reads.map((read) => [
    read.store,
    read.rows.toLocaleString('en'),
    ms(read.headersMs),
    read.bytes === 0 ? 'no body' : ms(read.firstByteMs),
    ms(read.totalMs),
    mib(read.bytes),
    `${read.rowsRead.toLocaleString('en')}${read.rowsRead === read.rows ? '' : ' (WRONG)'}`,
    read.lastRowRight ? 'right' : 'WRONG',
    kib(read.startedPeakKib),
    kib(read.peakKib),
    kib(read.peakAnonKib),
  ]);
  return table(
    [
      'store',
      'rows',
      'headers',
      'first byte',
      'all',
      'body',
      'rows read',
      'last row',
      'peak RSS started',
      'after read',
      'peak anon',
    ],
    rows,
  );
}

/**
 * First byte of the largest read under 100 ms. Its peak memory, that of the second largest,
 * within 1.5x of the smallest's (the sizes the issue of flat memory names: 100,000 and
 * 1,000,000 rows); and the largest's within 1.1x of the second largest's, twice the rows.
 */
function streamTargets(reads: StreamRead[]): TargetOutcome[] {
  const outcomes: TargetOutcome[] = [];
  for (const store of ['SQLite', 'PostgreSQL'] as const) {
    const mine = reads.filter((read) => read.store === store).sort((a, b) => a.rows - b.rows);
    const [smallest, middle, largest] = [mine[0], mine.at(-2), mine.at(-1)];
    if (mine.length < 3 || !smallest || !middle || !largest) continue;
    const rows = (read: StreamRead) => read.rows.toLocaleString('en');
    const wrong = mine.some((read) => read.rowsRead !== read.rows || !read.lastRowRight);
    const caveat = wrong ? { caveat: 'rows read WRONG: see the table above' } : {};
    outcomes.push(
      target(
        `i. ${store}: GET all ${rows(largest)} rows, time to first byte`,
        '<',
        100,
        largest.firstByteMs,
        'ms',
        caveat,
      ),
    );
    for (const [what, peak] of [
      ['peak RSS', (read: StreamRead) => read.peakKib],
      ['peak anonymous memory', (read: StreamRead) => read.peakAnonKib],
    ] as const) {
      for (const [more, fewer, bound, meaning] of [
        [middle, smallest, 1.5, 'flat'],
        [largest, middle, 1.1, 'no growth'],
      ] as const) {
        outcomes.push(
          target(
            `i. ${store}: server ${what} reading ${rows(more)} rows ÷ reading ${rows(fewer)} (${meaning})`,
            '<=',
            bound,
            (peak(more) ?? Number.NaN) / (peak(fewer) ?? Number.NaN),
            'times',
            {
              detail: `${mib((peak(more) ?? 0) * 1024)} ÷ ${mib((peak(fewer) ?? 0) * 1024)}`,
              ...caveat,
            },
          ),
        );
      }
    }
  }
  return outcomes;
}
