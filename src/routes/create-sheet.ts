import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import type { ProviderTable } from '../providers/provider.ts';
import { fullRow, planCells } from '../query/plan.ts';
import { defaultFreshnessSeconds } from '../sheets/sheet-mirror.ts';
import { newSheetId } from '../model/sheet-id.ts';
import type { Sheet, SheetSettings } from '../model/sheet.ts';
import {
  bodyRow,
  checkCells,
  checkColumns,
  checkWrite,
  rowAtId,
  type Limits,
} from '../access/limits.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { columnsFromHeader } from '../files/header.ts';
import { createEach, everyTab, tabSheetName, type SheetsCreated } from '../files/every-tab.ts';
import type { NewMirroredSheet, NewScratchSheet } from './schemas.ts';
import { readUploadForm } from './upload-form.ts';

/** What a new sheet gets unless told otherwise, and the limits it must keep within. */
export interface NewSheetPolicy {
  settings: SheetSettings;
  limits: Limits;
  /** The bytes an uploaded file may have. */
  uploadLimit: number;
}

/** The three ways to make a sheet: from scratch, from an uploaded file, from a provider's tab. */
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
  checkWrite({ kind: 'append', rows }, policy.limits, columns, bodyRow('"rows"'));
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
    const { path, fileName, ...form } = await readUploadForm(request, dir, policy.uploadLimit);
    const options = { ...form, settings: policy.settings, limits: policy.limits };
    // The file readers (CSV, XLSX) load with the first upload, not with the server.
    const { importEveryTab, importFile, wantsEveryTab } = await import('../files/import-file.ts');
    return wantsEveryTab(options)
      ? await importEveryTab(sheets, path, fileName, options)
      : await importFile(sheets, path, fileName, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Connects a tab of a provider's spreadsheet, or every tab (`*`): reads it whole, then keeps it
 * as a mirrored sheet. The registry finds the provider `source.provider` names, and the provider
 * reads the rest of `source`. A tab is mirrored by one sheet at most: connecting it again answers
 * 409 `already-connected`; with `*`, tabs already connected are skipped.
 */
export async function createFromProvider(
  sheets: Sheets,
  body: NewMirroredSheet,
  policy: NewSheetPolicy,
): Promise<Sheet | SheetsCreated> {
  const kind = sheets.providers.kind(body.source.provider);
  const request = kind.parseSource(body.source);
  const provider = sheets.providers.live(kind.name);
  const { document } = request;
  const settings = {
    ...policy.settings,
    freshnessSeconds: body.freshnessSeconds ?? defaultFreshnessSeconds,
  };
  const tabOf = (table: ProviderTable) => kind.tabOf(table.source);
  if (request.tab === everyTab) {
    const { title, tabs } = await provider.connectEveryTab(document);
    for (const { table } of tabs.read) checkTable(table, policy.limits);
    const name = body.name ?? title;
    const made = tabs.read.map(({ tab, table }) => ({
      draft: { ...mirroredDraft(table, settings), name: tabSheetName(name, tab) },
      rows: [table.rows],
      tab,
      tabId: tabOf(table).id,
    }));
    // The document as the tabs name it (a link resolves to the ids a stored source keeps).
    const found = tabs.read[0] === undefined ? document : tabOf(tabs.read[0].table).document;
    const created = await sheets.connectTabs(kind.name, found, async (connected) => {
      // Tabs already connected are left out, as tabs without a header are: the rest still come in.
      const free = made.filter(({ tabId }) => !connected.has(tabId));
      const taken = made.flatMap(({ tab, tabId }) => {
        const sheet = connected.get(tabId);
        return sheet === undefined ? [] : [{ tab, sheet }];
      });
      if (free.length === 0) throw everyTabConnected(found, taken);
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
  const table = await provider.connect(request);
  checkTable(table, policy.limits);
  const tab = tabOf(table);
  const draft = { ...mirroredDraft(table, settings), name: body.name ?? tab.title };
  const sheet = await sheets.connectTabs(kind.name, tab.document, async (connected) => {
    const taken = connected.get(tab.id);
    if (taken !== undefined) throw tabConnected(tab.document, tab.title, taken);
    return sheets.createSheet(draft, [table.rows]);
  });
  sheets.synced(draft.id);
  return sheet;
}

/** One tab, one sheet: two sheets pushing to one tab would each take the other's rows as edits. */
function tabConnected(document: string, tab: string, sheet: Sheet): Problem {
  return new Problem(
    'already-connected',
    `Tab "${tab}" of spreadsheet ${document} is already connected as sheet "${sheet.name}" (${sheet.id}); use that sheet, or delete it first.`,
    { sheet: { id: sheet.id, name: sheet.name } },
  );
}

function everyTabConnected(document: string, taken: { tab: string; sheet: Sheet }[]): Problem {
  const list = taken.map(({ tab, sheet }) => `"${tab}" as "${sheet.name}" (${sheet.id})`);
  return new Problem(
    'already-connected',
    `Every tab of spreadsheet ${document} is already connected: ${list.join(', ')}.`,
    { sheets: taken.map(({ tab, sheet }) => ({ tab, id: sheet.id, name: sheet.name })) },
  );
}

function checkTable(table: ProviderTable, limits: Limits): void {
  checkColumns(table.columns, limits);
  checkCells(table.rows, limits, table.columns, rowAtId());
}

function mirroredDraft(table: ProviderTable, settings: SheetSettings) {
  return { id: newSheetId(), columns: table.columns, source: table.source, settings };
}
