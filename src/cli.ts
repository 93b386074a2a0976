#!/usr/bin/env node
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config/config.ts';
import { Problem } from './errors/problem.ts';
import { openStore, serve } from './server.ts';
import { importFile } from './sources/import-file.ts';
import { newSheetSettings } from './access/access-control.ts';

const usage = `Usage:
  sheetport serve                     serve the API (settings: SHEETPORT_* variables, see README)
  sheetport import FILE [--name N] [--tab T]
                                      import a .csv or .xlsx file as a new sheet
`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tab: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(usage);
    return command === undefined && !values.help ? 1 : 0;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await serve(config);
      return -1;
    case 'import':
      if (rest.length !== 1 || rest[0] === undefined) break;
      await importCommand(config, rest[0], values.name, values.tab);
      return 0;
  }
  process.stderr.write(usage);
  return 1;
}

/** Imports a file into the store the server uses, printing progress as rows go in. */
async function importCommand(
  config: Config,
  path: string,
  name: string | undefined,
  tab: string | undefined,
) {
  const store = await openStore(config);
  try {
    let shown = 0;
    const sheet = await importFile(store, path, basename(path), {
      name,
      tab,
      settings: newSheetSettings(config.adminToken !== undefined),
      limits: config.limits,
      onProgress: (rows) => {
        if (Date.now() - shown < 500) return;
        shown = Date.now();
        process.stderr.write(`\rread ${rows.toLocaleString('en')} rows`);
      },
    });
    process.stderr.write(`\rimported ${sheet.rowCount.toLocaleString('en')} rows\n`);
    process.stdout.write(
      `${JSON.stringify({ id: sheet.id, name: sheet.name, rowCount: sheet.rowCount })}\n`,
    );
  } finally {
    await store.close();
  }
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
