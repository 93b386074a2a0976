import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { fullRow, planCells } from '../query/plan.ts';
import type { Sheet } from '../sheets/sheet.ts';
import { columnsFromHeader } from '../sources/header.ts';
import { importFile } from '../sources/import-file.ts';
import { newSheetId } from '../sheets/sheet-id.ts';
import type { SheetStore } from '../store/store.ts';
import { adminParams, NewScratchSheet, problem, sheetRef, SheetPatch } from './schemas.ts';

export interface AdminRouteDeps {
  store: SheetStore;
  uploadLimit: number;
}

/** A sheet as the management API shows it. */
export function describeSheet(sheet: Sheet) {
  return {
    id: sheet.id,
    name: sheet.name,
    columns: sheet.columns,
    rowCount: sheet.rowCount,
    source: sheet.source,
    settings: sheet.settings,
    createdAt: sheet.createdAt,
    updatedAt: sheet.updatedAt,
  };
}

/**
 * The upload form, for the OpenAPI document. It has no `type`: the multipart plugin streams the
 * parts instead of building a body, so there is no object for the validator to check.
 */
const UploadForm = Type.Unsafe<unknown>({
  properties: {
    file: { type: 'string', format: 'binary', description: 'A .csv or .xlsx file (required).' },
    name: { type: 'string', description: 'The sheet name; the file name by default.' },
    tab: { type: 'string', description: 'XLSX worksheet; the first by default.' },
  },
});

type SheetRequest = FastifyRequest<{ Params: Static<typeof adminParams> }>;

export async function adminRoutes(
  app: FastifyInstance,
  { store, uploadLimit }: AdminRouteDeps,
): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: uploadLimit, files: 1, fields: 10, parts: 12 },
  });

  async function sheetFor(request: SheetRequest): Promise<Sheet> {
    const sheet = await store.getSheet(request.params.sheetId);
    if (sheet === null)
      throw new Problem('sheet-not-found', `No sheet with id "${request.params.sheetId}".`);
    return sheet;
  }

  app.post(
    '/admin/v1/sheets',
    {
      schema: {
        summary: 'Create a sheet from scratch (JSON) or from an uploaded CSV/XLSX file (multipart)',
        tags: ['sheets'],
        body: {
          content: {
            'application/json': { schema: NewScratchSheet },
            'multipart/form-data': { schema: UploadForm },
          },
        },
        response: {
          201: sheetRef,
          400: problem('Bad header, body or upload.'),
          415: problem('Not CSV or XLSX.'),
        },
      },
    },
    async (request, reply) => {
      const sheet = request.isMultipart()
        ? await createFromUpload(store, request)
        : await createFromScratch(store, request.body as Static<typeof NewScratchSheet>);
      return reply.code(201).send(describeSheet(sheet));
    },
  );

  app.get(
    '/admin/v1/sheets',
    {
      schema: { summary: 'List sheets', tags: ['sheets'], response: { 200: Type.Array(sheetRef) } },
    },
    async () => (await store.listSheets()).map(describeSheet),
  );

  app.get(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Describe a sheet',
        tags: ['sheets'],
        params: adminParams,
        response: { 200: sheetRef, 404: problem('Unknown sheet.') },
      },
    },
    async (request: SheetRequest) => describeSheet(await sheetFor(request)),
  );

  app.patch(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Rename a sheet or change its settings',
        tags: ['sheets'],
        params: adminParams,
        body: SheetPatch,
        response: { 200: sheetRef, 400: problem('Bad settings.'), 404: problem('Unknown sheet.') },
      },
    },
    async (request: SheetRequest) => {
      const sheet = await sheetFor(request);
      const patch = request.body as Static<typeof SheetPatch>;
      const updated = await store.updateSheet(sheet.id, {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        settings: patch.deleteEnabled === undefined ? {} : { deleteEnabled: patch.deleteEnabled },
      });
      if (updated === null) throw new Problem('sheet-not-found', `No sheet with id "${sheet.id}".`);
      return describeSheet(updated);
    },
  );

  app.delete(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Remove a sheet and all its rows',
        tags: ['sheets'],
        params: adminParams,
        response: { 204: Type.Null(), 404: problem('Unknown sheet.') },
      },
    },
    async (request: SheetRequest, reply) => {
      const sheet = await sheetFor(request);
      await store.deleteSheet(sheet.id);
      return reply.code(204).send();
    },
  );
}

async function createFromScratch(
  store: SheetStore,
  body: Static<typeof NewScratchSheet>,
): Promise<Sheet> {
  const columns = columnsFromHeader(body.columns, { trailingEmpty: 'refuse' });
  const draft = {
    id: newSheetId(),
    name: body.name,
    columns,
    source: { provider: 'scratch' as const },
    settings: { deleteEnabled: true },
  };
  const rows = (body.rows ?? []).map((row, i) =>
    fullRow(draft, planCells(draft, row, `Row ${i} of "rows"`)),
  );
  return store.createSheet(draft, [rows]);
}

/** Streams the file part to a temporary file, then imports it; the file is gone either way. */
async function createFromUpload(store: SheetStore, request: FastifyRequest): Promise<Sheet> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-upload-'));
  try {
    const fields: Record<string, string> = {};
    let upload: { path: string; fileName: string } | null = null;
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
    if (upload === null) {
      throw new Problem(
        'invalid-body',
        'The multipart body has no "file" part; attach the CSV or XLSX file as "file".',
      );
    }
    return await importFile(store, upload.path, upload.fileName, {
      name: fields.name,
      tab: fields.tab,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
