#!/usr/bin/env node
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config/config.ts';
import { Problem } from './errors/problem.ts';
import { openStore, serve } from './server.ts';
import { csvOptions, givesCsvOptions } from './files/csv-options.ts';
import type { ImportOptions } from './files/import-file.ts';
import { newSheetSettings } from './access/access-control.ts';
import type { Sheet } from './model/sheet.ts';
import type { SheetStore } from './store/store.ts';
import { openProviders } from './providers/providers.ts';
import { isSignInAction, signInCommand } from './providers/sign-in-command.ts';

const usage = `Usage:
  sheetport serve                     serve the API (settings: SHEETPORT_* variables, see README)
  sheetport import FILE [--name N] [--tab T]
                 [--delimiter D] [--encoding E] [--decimal .|,] [--text-column C]...
                                      import a .csv, .tsv, .txt or .xlsx file as a new sheet;
                                      --tab '*' imports every worksheet of a workbook;
                                      --text-column keeps a column's cells as text (repeat it)
  sheetport export SHEET_ID FILE.csv|FILE.xlsx
                                      write every row of a sheet to a CSV or XLSX file
  sheetport backup FILE               copy the SQLite store to FILE, consistently, while the
                                      server runs (for PostgreSQL, use pg_dump: see README)
  sheetport sign-in PROVIDER          sign in to a provider as a user, where it offers this:
                                      prints a code to enter at the provider's page, and waits
  sheetport sign-out PROVIDER         forget the provider's sign-in
  sheetport sign-in-status PROVIDER   say who is signed in to the provider
  sheetport mcp --url URL [--key KEY] relay MCP between standard input and output and the
                                      server at URL, for desktop AI clients; the key may come
                                      from SHEETPORT_KEY instead (arguments show in ps)
`;

async function main(argv: string[]): Promise<number> {
  // A sheet id may begin with "-" (it is base64url), and `export` takes no options: its
  // arguments are all positional, as if they followed "--".
  const args =
    argv[0] === 'export' ? ['export', '--', ...argv.slice(1).filter((arg) => arg !== '--')] : argv;
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tab: { type: 'string' },
      delimiter: { type: 'string' },
      encoding: { type: 'string' },
      decimal: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      'text-column': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(usage);
    return command === undefined && !values.help ? 1 : 0;
  }
  if (command === 'mcp') {
    // A client of a server, not a server: none of the server's settings apply.
    if (rest.length !== 0 || values.url === undefined) {
      process.stderr.write('sheetport mcp needs --url, the address of a Sheetport server\n');
      return 1;
    }
    const { bridgeStdio } = await import('./mcp/stdio-bridge.ts');
    await bridgeStdio(values.url, values.key ?? process.env.SHEETPORT_KEY);
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config);
      return -1;
    case 'import':
      if (rest.length !== 1 || rest[0] === undefined) break;
      await importCommand(config, rest[0], {
        name: values.name,
        tab: values.tab,
        csv: givesCsvOptions(values) ? csvOptions(values) : undefined,
        textColumns: values['text-column'],
      });
      return 0;
    case 'export': {
      const [id, file] = rest;
      if (rest.length !== 2 || id === undefined || file === undefined) break;
      // Each command loads what it uses: `serve` starts without the file readers and writers.
      const { exportSheet } = await import('./files/export-file.ts');
      await withStore(config, async (store) => {
        const rows = await exportSheet(store, id, file);
        process.stderr.write(`exported ${rows.toLocaleString('en')} rows to ${file}\n`);
      });
      return 0;
    }
    case 'backup': {
      const [file] = rest;
      if (rest.length !== 1 || file === undefined) break;
      await backupCommand(config, file);
      return 0;
    }
  }
  if (isSignInAction(command)) {
    const [provider] = rest;
    if (rest.length !== 1 || provider === undefined) {
      process.stderr.write(usage);
      return 1;
    }
    let code = 1;
    await withStore(config, async (store) => {
      // Only that provider is opened: signing in to one never loads the others.
      const providers = await openProviders(config, { credentials: store.credentials }, [provider]);
      code = await signInCommand(command, provider, providers, {
        info: (line) => process.stderr.write(`${line}\n`),
        result: (line) => process.stdout.write(`${line}\n`),
      });
    });
    return code;
  }
  process.stderr.write(usage);
  return 1;
}

/**
 * Imports a file into the store the server uses, printing progress as rows go in, then the new
 * sheet (or, for every tab, the sheets and the tabs skipped) as one JSON line.
 */
async function importCommand(
  config: Config,
  path: string,
  given: Pick<ImportOptions, 'name' | 'tab' | 'csv' | 'textColumns'>,
) {
  const { importEveryTab, importFile, wantsEveryTab } = await import('./files/import-file.ts');
  await withStore(config, async (store) => {
    if (config.databaseUrl === undefined) await refuseHeldDataDir(store, config.dataDir);
    let shown = 0;
    // A terminal shows the count in place; a log or a pipe gets one line per message.
    const line = process.stderr.isTTY
      ? (text: string) => `\r${text}`
      : (text: string) => `${text}\n`;
    const options: ImportOptions = {
      ...given,
      settings: newSheetSettings(config.adminToken !== undefined),
      limits: config.limits,
      onProgress: (rows) => {
        if (Date.now() - shown < 500) return;
        shown = Date.now();
        process.stderr.write(line(`read ${rows.toLocaleString('en')} rows`));
      },
    };
    // How the file was read, where it was decided from the file: its decimal mark, its text columns.
    const summary = (sheet: Sheet) => ({
      id: sheet.id,
      name: sheet.name,
      rowCount: sheet.rowCount,
      ...('decimal' in sheet.source ? { decimal: sheet.source.decimal } : {}),
      ...(sheet.settings.textColumns === undefined
        ? {}
        : { textColumns: sheet.settings.textColumns }),
    });
    let imported: Sheet[];
    let answer: unknown;
    if (wantsEveryTab(options)) {
      const { sheets, skipped } = await importEveryTab(store, path, basename(path), options);
      imported = sheets;
      answer = { sheets: sheets.map(summary), skipped };
    } else {
      const sheet = await importFile(store, path, basename(path), options);
      imported = [sheet];
      answer = summary(sheet);
    }
    const rows = imported.reduce((sum, sheet) => sum + sheet.rowCount, 0);
    const done = `imported ${rows.toLocaleString('en')} rows`;
    process.stderr.write(process.stderr.isTTY ? `\r${done}\n` : `${done}\n`);
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
}

/**
 * A server owns its SQLite data directory: it keeps sheets in memory, and rows written beside it
 * would not be seen as they should. So an import waits for no server to hold it, as the lease
 * each running server keeps in the store tells. (Servers sharing PostgreSQL see every write,
 * so an import there may run beside them.)
 */
async function refuseHeldDataDir(store: SheetStore, dataDir: string): Promise<void> {
  const [server] = await store.runningServers();
  if (server === undefined) return;
  throw new Error(
    `a server (process ${server.pid} on ${server.host}) is running on the data directory ${dataDir}; stop it first, or upload the file to it (POST /admin/v1/sheets, or the console's upload form). If that server is gone, its hold ends by ${server.leaseUntil}.`,
  );
}

async function withStore(config: Config, work: (store: SheetStore) => Promise<void>) {
  const store = await openStore(config);
  try {
    await work(store);
  } finally {
    await store.database.close();
  }
}

async function backupCommand(config: Config, file: string) {
  if (config.databaseUrl !== undefined) {
    throw new Error(
      'the store is PostgreSQL (SHEETPORT_DATABASE_URL): back it up with pg_dump, as the README says.',
    );
  }
  const source = join(config.dataDir, 'sheetport.db');
  const { backupSqlite } = await import('./store/sqlite/sqlite-backup.ts');
  const pages = await backupSqlite(source, resolve(file));
  process.stderr.write(`copied ${source} to ${file} (${pages.toLocaleString('en')} pages)\n`);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const message =
      error instanceof Problem || error instanceof Error ? error.message : String(error);
    process.stderr.write(`sheetport: ${message}\n`);
    process.exitCode = 1;
  },
);
