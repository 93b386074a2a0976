import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { parseSpreadsheetId } from '../providers/google/spreadsheet-ref.ts';
import type { ProviderTable } from '../providers/provider.ts';
import { fullRow, planCells } from '../query/plan.ts';
import { defaultFreshnessSeconds } from '../sheets/sheet-mirror.ts';
import { newSheetId } from '../model/sheet-id.ts';
import type { Sheet, SheetSettings } from '../model/sheet.ts';
import { checkCells, checkColumns, checkWrite, type Limits } from '../access/limits.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { columnsFromHeader } from '../files/header.ts';
import { createEach, everyTab, tabSheetName, type SheetsCreated } from '../files/every-tab.ts';
import { importEveryTab, importFile, wantsEveryTab } from '../files/import-file.ts';
import type { NewGoogleSheet, NewScratchSheet } from './schemas.ts';
import { readUploadForm } from './upload-form.ts';

/** What a new sheet gets unless told otherwise, and the limits it must keep within. */
export interface NewSheetPolicy {
  settings: SheetSettings;
  limits: Limits;
}

/** The three ways to make a sheet: from scratch, from an uploaded file, from a Google tab. */
export async function createFromScratch(
  sheets: Sheets,
  body: Static<typeof NewScratchSheet>,
  policy: NewSheetPolicy,
): Promise<Sheet> {
  const columns = columnsFromHeader(body.columns, { trailingEmpty: 'refuse' });
  const draft = {
    id: newSheetId(),
    name: body.name,
    columns,
    source: { provider: 'scratch' as const },
    settings: policy.settings,
  };
  checkColumns(columns, policy.limits);
  const rows = (body.rows ?? []).map((row, i) =>
    fullRow(draft, planCells(draft, row, `Row ${i} of "rows"`)),
  );
  checkWrite({ kind: 'append', rows }, policy.limits);
  return sheets.createSheet(draft, [rows]);
}

/** Streams the file part to a temporary file, then imports it; the file is gone either way. */
export async function createFromUpload(
  sheets: Sheets,
  request: FastifyRequest,
  policy: NewSheetPolicy,
): Promise<Sheet | SheetsCreated> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-upload-'));
  try {
    const { path, fileName, ...form } = await readUploadForm(request, dir);
    const options = { ...form, settings: policy.settings, limits: policy.limits };
    return wantsEveryTab(options)
      ? await importEveryTab(sheets, path, fileName, options)
      : await importFile(sheets, path, fileName, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Connects a tab of a Google spreadsheet, or every tab (`*`): reads it whole, then keeps it as a
 * mirrored sheet. A tab is mirrored by one sheet at most: connecting it again answers 409
 * `already-connected`; with `*`, tabs already connected are skipped.
 */
export async function createFromGoogle(
  sheets: Sheets,
  body: Static<typeof NewGoogleSheet>,
  policy: NewSheetPolicy,
): Promise<Sheet | SheetsCreated> {
  const google = sheets.providers.google;
  if (google === undefined) {
    throw new Problem(
      'provider-not-configured',
      'This server has no Google access configured: set SHEETPORT_GOOGLE_CREDENTIALS (or SHEETPORT_GOOGLE_API_KEY for read-only sheets), as the README explains.',
    );
  }
  const spreadsheetId = parseSpreadsheetId(body.source.spreadsheetId);
  const settings = {
    ...policy.settings,
    freshnessSeconds: body.freshnessSeconds ?? defaultFreshnessSeconds,
  };
  if (body.source.tab === everyTab) {
    const { title, tabs } = await google.connectEveryTab(spreadsheetId);
    for (const { table } of tabs.read) checkTable(table, policy.limits);
    const name = body.name ?? title;
    const made = tabs.read.map(({ tab, table }) => ({
      draft: { ...googleDraft(table, settings), name: tabSheetName(name, tab) },
      rows: [table.rows],
      tab,
      tabId: tabIdOf(table),
    }));
    const created = await sheets.connectTabs(spreadsheetId, async (connected) => {
      // Tabs already connected are left out, as tabs without a header are: the rest still come in.
      const free = made.filter(({ tabId }) => !connected.has(tabId));
      const taken = made.flatMap(({ tab, tabId }) => {
        const sheet = connected.get(tabId);
        return sheet === undefined ? [] : [{ tab, sheet }];
      });
      if (free.length === 0) throw everyTabConnected(spreadsheetId, taken);
      const skipped = taken.map(({ tab, sheet }) => ({
        tab,
        reason: `Already connected as sheet "${sheet.name}" (${sheet.id}).`,
        sheet: { id: sheet.id, name: sheet.name },
      }));
      return { sheets: await createEach(sheets, free), skipped: [...tabs.skipped, ...skipped] };
    });
    for (const sheet of created.sheets) sheets.synced(sheet.id);
    return created;
  }
  const table = await google.connect(spreadsheetId, body.source.tab);
  checkTable(table, policy.limits);
  const draft = {
    ...googleDraft(table, settings),
    name: body.name ?? (table.source.provider === 'google' ? table.source.tab : 'google'),
  };
  const sheet = await sheets.connectTabs(spreadsheetId, async (connected) => {
    const taken = connected.get(tabIdOf(table));
    if (taken !== undefined) throw tabConnected(spreadsheetId, taken);
    return sheets.createSheet(draft, [table.rows]);
  });
  sheets.synced(draft.id);
  return sheet;
}

/** One tab, one sheet: two sheets pushing to one tab would each take the other's rows as edits. */
function tabConnected(spreadsheetId: string, sheet: Sheet): Problem {
  const tab = sheet.source.provider === 'google' ? sheet.source.tab : '';
  return new Problem(
    'already-connected',
    `Tab "${tab}" of spreadsheet ${spreadsheetId} is already connected as sheet "${sheet.name}" (${sheet.id}); use that sheet, or delete it first.`,
    { sheet: { id: sheet.id, name: sheet.name } },
  );
}

function everyTabConnected(spreadsheetId: string, taken: { tab: string; sheet: Sheet }[]): Problem {
  const list = taken.map(({ tab, sheet }) => `"${tab}" as "${sheet.name}" (${sheet.id})`);
  return new Problem(
    'already-connected',
    `Every tab of spreadsheet ${spreadsheetId} is already connected: ${list.join(', ')}.`,
    { sheets: taken.map(({ tab, sheet }) => ({ tab, id: sheet.id, name: sheet.name })) },
  );
}

function tabIdOf(table: ProviderTable): number {
  return table.source.provider === 'google' ? table.source.tabId : 0;
}

function checkTable(table: ProviderTable, limits: Limits): void {
  checkColumns(table.columns, limits);
  checkCells(table.rows, limits);
}

function googleDraft(table: ProviderTable, settings: SheetSettings) {
  return { id: newSheetId(), columns: table.columns, source: table.source, settings };
}
