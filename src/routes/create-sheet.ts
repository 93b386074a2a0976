import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { parseSpreadsheetId } from '../providers/google/spreadsheet-ref.ts';
import { fullRow, planCells } from '../query/plan.ts';
import { defaultFreshnessSeconds } from '../sheets/sheet-mirror.ts';
import { newSheetId } from '../sheets/sheet-id.ts';
import type { Sheet, SheetSettings } from '../sheets/sheet.ts';
import { checkCells, checkColumns, checkWrite, type Limits } from '../access/limits.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { columnsFromHeader } from '../sources/header.ts';
import { importFile } from '../sources/import-file.ts';
import type { NewGoogleSheet, NewScratchSheet } from './schemas.ts';

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
): Promise<Sheet> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-upload-'));
  try {
    const fields: Record<string, string> = {};
    let upload: { path: string; fileName: string } | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            part.file.resume();
            throw new Problem(
              'invalid-body',
              `Unexpected file part "${part.fieldname}"; send the file as "file".`,
            );
          }
          const path = join(dir, 'upload');
          await pipeline(part.file, createWriteStream(path));
          upload = { path, fileName: part.filename };
        } else if (part.fieldname === 'name' || part.fieldname === 'tab') {
          fields[part.fieldname] = String(part.value);
        } else {
          throw new Problem(
            'invalid-body',
            `Unexpected form field "${part.fieldname}"; an upload takes "file", and optionally "name" and "tab".`,
          );
        }
      }
    } catch (error) {
      throw malformedForm(error);
    }
    if (fields.name !== undefined && !isStorableText(fields.name)) {
      throw new Problem(
        'invalid-body',
        'The sheet name holds a NUL character or a lone surrogate.',
      );
    }
    if (upload === null) {
      throw new Problem(
        'invalid-body',
        'The multipart body has no "file" part; attach the CSV or XLSX file as "file".',
      );
    }
    return await importFile(sheets, upload.path, upload.fileName, {
      settings: policy.settings,
      limits: policy.limits,
      name: fields.name,
      tab: fields.tab,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A body that is not well-formed multipart (cut short, no boundary) is a bad upload. */
function malformedForm(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (error instanceof Problem || (typeof code === 'string' && code.startsWith('FST_')))
    return error;
  return new Problem(
    'invalid-upload',
    `The multipart body could not be read (${error instanceof Error ? error.message : String(error)}); send a well-formed multipart/form-data body with a "file" part.`,
  );
}

/** Connects a tab of a Google spreadsheet: reads it whole, then keeps it as a mirrored sheet. */
export async function createFromGoogle(
  sheets: Sheets,
  body: Static<typeof NewGoogleSheet>,
  policy: NewSheetPolicy,
): Promise<Sheet> {
  const google = sheets.providers.google;
  if (google === undefined) {
    throw new Problem(
      'provider-not-configured',
      'This server has no Google access configured: set SHEETPORT_GOOGLE_CREDENTIALS (or SHEETPORT_GOOGLE_API_KEY for read-only sheets), as the README explains.',
    );
  }
  const table = await google.connect(
    parseSpreadsheetId(body.source.spreadsheetId),
    body.source.tab,
  );
  checkColumns(table.columns, policy.limits);
  checkCells(table.rows, policy.limits);
  const id = newSheetId();
  const sheet = await sheets.createSheet(
    {
      id,
      name: body.name ?? (table.source.provider === 'google' ? table.source.tab : 'google'),
      columns: table.columns,
      source: table.source,
      settings: {
        ...policy.settings,
        freshnessSeconds: body.freshnessSeconds ?? defaultFreshnessSeconds,
      },
    },
    [table.rows],
  );
  sheets.synced(id);
  return sheet;
}
