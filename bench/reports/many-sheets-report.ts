import { cpuLegend, describePlan, type Timing } from './load-report.ts';
import { median, type Measurement } from '../harness/load.ts';
import { print } from '../harness/output.ts';
import { errorLines, loadTable, table } from './report.ts';

/** How case j reads when printed. */

export interface Creation {
  store: string;
  sheets: number;
  /** Each tenth of the sheets, by the order they completed: sheets from..to - 1. */
  windows: { from: number; to: number; msPerSheet: number }[];
}

export interface Storage {
  store: string;
  /** 'many': the 20-row sheets; 'empty': sheets with no row; 'one': a single 20-row sheet. */
  purpose: string;
  sheets: number;
  rowsEach: number;
  beforeBytes: number;
  afterBytes: number;
  perSheetBytes: number;
}

export interface StartUps {
  store: string;
  sheets: number;
  /** To the first 200 of GET /api/v1/<id>, each start. */
  ms: number[];
  /** To the first answer of any kind, each start. */
  answeringMs: number[];
}

const integer = (n: number) => Math.round(n).toLocaleString('en');

export function printManySheets(result: {
  creation: Creation[];
  storage: Storage[];
  startUps: StartUps[];
  filter: Measurement[];
  post: Measurement[];
  plan: { sheets: number; probe: number; timing: Timing };
}): void {
  const { plan } = result;
  const count = integer(plan.sheets);
  print(`\n== j. ${count} sheets in one store ==`);
  print(
    `Sheets of 5 columns (id, name, email, age, city) and 20 rows each, every sheet's rows its own, created one after`,
  );
  print(
    `another with POST /admin/v1/sheets {"name","columns","rows"}, 8 requests in flight, on a fresh store per row below:`,
  );
  print(
    'a SQLite data directory, or a database of its own on the PostgreSQL. Servers have default settings unless said.',
  );
  print(
    `\n-- creation: milliseconds per sheet in each tenth of the ${count}, by the order they completed --`,
  );
  const [first] = result.creation;
  const rows = (first?.windows ?? []).map((window, i) => [
    `${integer(window.from + 1)}-${integer(window.to)}`,
    ...result.creation.map((c) => c.windows[i]?.msPerSheet.toFixed(2) ?? '?'),
  ]);
  print(table(['sheets', ...result.creation.map((c) => `${c.store} ms/sheet`)], rows));

  print('\n-- storage --');
  print(
    'SQLite: the data directory (sheetport.db and any -wal, -shm) after its server stopped, against one that a server',
  );
  print(
    'opened and closed with no sheet. PostgreSQL: pg_database_size of the database, before the sheets and after,',
  );
  print('while its server runs (after migrations: the empty schema is the "before").');
  print(
    table(
      ['store', 'sheets', 'rows each', 'before', 'after', 'per sheet'],
      result.storage.map((s) => [
        s.store,
        integer(s.sheets),
        integer(s.rowsEach),
        `${integer(s.beforeBytes)} B`,
        `${integer(s.afterBytes)} B`,
        `${integer(s.perSheetBytes)} B`,
      ]),
    ),
  );

  print(
    '\n-- start-up: from spawning `node dist/cli.js serve` to the first 200 of GET /api/v1/<id> --',
  );
  print(
    'Asked every 2 ms from the spawn; "first answer" is the first HTTP answer of any status (the port is open),',
  );
  print(
    '"first 200" the first with the sheet\'s rows. Each start ends with SIGTERM. The 1-sheet store holds one 20-row sheet.',
  );
  print(
    table(
      ['store', 'sheets', 'first answer (ms)', 'first 200 (ms)', 'median first 200'],
      result.startUps.map((s) => [
        s.store,
        integer(s.sheets),
        s.answeringMs.map(integer).join(' / '),
        s.ms.map(integer).join(' / '),
        `${integer(median(s.ms))} ms`,
      ]),
    ),
  );

  print(`\n-- a small sheet among ${count} against the same sheet alone --`);
  print(
    `Sheet ${integer(plan.probe + 1)} of the ${count}, and the same 20 rows as the only sheet of a store of its own, each served`,
  );
  print(
    'with SHEETPORT_CACHE_SIZE=0: GET /api/v1/<id>?name=<v> cycling over its 20 names, then single-row POSTs to it',
  );
  print(
    '(which grow it by thousands of rows: both sheets alike). ratios: each row divided by the first.',
  );
  for (const [label, measurements] of [
    ['equality filter', result.filter],
    ['single-row POST', result.post],
  ] as const) {
    const connections = 20;
    print(`\n${label}: ${describePlan({ ...plan.timing, connections })}`);
    print(loadTable(measurements, 'row-over-first'));
    for (const line of errorLines(measurements)) print(line);
  }
  for (const line of cpuLegend) print(line);
}
