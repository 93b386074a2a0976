import multipart from '@fastify/multipart';
import type { SwaggerTransform } from '@fastify/swagger';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { tabGoneAt, type Sheet } from '../model/sheet.ts';
import type { SheetsCreated } from '../files/every-tab.ts';
import { checkTextColumns } from '../files/text-columns.ts';
import type { Sheets } from '../sheets/sheets.ts';
import {
  accessOf,
  allowedOriginsOf,
  newSheetSettings,
  type AccessControl,
} from '../access/access-control.ts';
import type { Limits } from '../access/limits.ts';
import {
  createFromProvider,
  createFromScratch,
  createFromUpload,
  type NewSheetPolicy,
} from './create-sheet.ts';
import { keyRoutes } from './key-routes.ts';
import { named } from './named-schemas.ts';
import { webhookRoutes } from './webhook-routes.ts';
import {
  adminParams,
  newMirroredSheet,
  NewScratchSheet,
  type NewMirroredSheet,
  adminOperation,
  problemResponses,
  providersDescription,
  type SheetPatch,
} from './schemas.ts';
import { UploadForm, uploadLimits } from './upload-form.ts';

export interface AdminRouteDeps {
  sheets: Sheets;
  uploadLimit: number;
  access: AccessControl;
  limits: Limits;
  /** Let webhooks reach loopback and private addresses. */
  allowPrivateWebhooks: boolean;
}

/** A sheet as the management API shows it. */
export function describeSheet(sheet: Sheet) {
  return {
    id: sheet.id,
    name: sheet.name,
    columns: sheet.columns,
    rowCount: sheet.rowCount,
    source: sheet.source,
    ...(tabGoneAt(sheet.source) !== null && { tabGone: tabGoneAt(sheet.source) }),
    settings: {
      ...sheet.settings,
      access: accessOf(sheet),
      allowedOrigins: allowedOriginsOf(sheet),
    },
    createdAt: sheet.createdAt,
    updatedAt: sheet.updatedAt,
  };
}

/** Adds the upload form (`upload-form.ts`) to the route's description. */
const documentUploadForm: SwaggerTransform = ({ schema, url }) => {
  const body = schema.body as { content: Record<string, unknown> };
  const content = { ...body.content, 'multipart/form-data': { schema: UploadForm } };
  return { schema: { ...schema, body: { ...body, content } }, url };
};

type SheetRequest = FastifyRequest<{ Params: Static<typeof adminParams> }>;

export async function adminRoutes(
  app: FastifyInstance,
  { sheets, uploadLimit, access, limits, allowPrivateWebhooks }: AdminRouteDeps,
): Promise<void> {
  app.addHook('onRequest', async (request) => access.admin(request));
  // Management bodies are JSON or multipart; anything else is refused with 415.
  app.removeContentTypeParser('text/plain');
  const policy: NewSheetPolicy = {
    settings: newSheetSettings(access.adminTokenSet),
    limits,
    uploadLimit,
  };
  await app.register(multipart, {
    limits: { fileSize: uploadLimit, ...uploadLimits },
  });
  const sheetFor = (request: SheetRequest) => sheets.get(request.params.sheetId);

  app.post(
    '/admin/v1/sheets',
    {
      schema: {
        summary:
          "Create a sheet: from scratch or from a provider's spreadsheet (JSON), or from an uploaded CSV/XLSX file (multipart); tab=* makes one per tab",
        ...adminOperation('createSheet', 'sheets'),
        body: {
          content: {
            'application/json': {
              schema: Type.Union([NewScratchSheet, newMirroredSheet(sheets.providers.kinds())]),
            },
          },
        },
        response: {
          201: Type.Union([named('Sheet'), named('SheetsCreated')]),
          ...problemResponses('createSheet'),
        },
      },
      config: { swaggerTransform: documentUploadForm },
      // Before the body's shape is checked, so that an unknown provider is named as such.
      preValidation: async (request) => {
        const { source } = (request.body ?? {}) as { source?: { provider?: unknown } };
        const provider = source?.provider;
        if (typeof provider === 'string') sheets.providers.kind(provider);
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof NewScratchSheet> | NewMirroredSheet | undefined;
      let created: Sheet | SheetsCreated;
      if (request.isMultipart()) created = await createFromUpload(sheets, request, policy);
      else if (body === undefined) {
        // Without a content type there is no body to validate: nothing says what to make.
        throw new Problem(
          'invalid-body',
          "A new sheet needs a body: JSON for a sheet from scratch or from a provider's spreadsheet, or a multipart upload.",
        );
      } else if ('source' in body) created = await createFromProvider(sheets, body, policy);
      else created = await createFromScratch(sheets, body, policy);
      return reply
        .code(201)
        .send(
          'sheets' in created
            ? { sheets: created.sheets.map(describeSheet), skipped: created.skipped }
            : describeSheet(created),
        );
    },
  );

  app.get(
    '/admin/v1/sheets',
    {
      schema: {
        summary: 'List sheets',
        ...adminOperation('listSheets', 'sheets'),
        response: { 200: Type.Array(named('Sheet')), ...problemResponses('listSheets') },
      },
    },
    async () => (await sheets.list()).map(describeSheet),
  );

  app.get(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Describe a sheet',
        ...adminOperation('getSheet', 'sheets'),
        params: adminParams,
        response: { 200: named('Sheet'), ...problemResponses('getSheet') },
      },
    },
    async (request: SheetRequest) => describeSheet(await sheetFor(request)),
  );

  app.patch(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Rename a sheet or change its settings',
        ...adminOperation('updateSheet', 'sheets'),
        params: adminParams,
        body: named('SheetPatch'),
        response: { 200: named('Sheet'), ...problemResponses('updateSheet') },
      },
    },
    async (request: SheetRequest) => {
      const sheet = await sheetFor(request);
      const body = request.body as Static<typeof SheetPatch>;
      const { name, deleteEnabled, freshnessSeconds, access, allowedOrigins } = body;
      for (const setting of ['freshnessSeconds', 'watch', 'watchIntervalSeconds'] as const) {
        if (body[setting] !== undefined && sheets.providerFor(sheet) === null) {
          throw new Problem(
            'invalid-body',
            `${setting} applies to sheets connected to a spreadsheet service only.`,
          );
        }
      }
      const settings = {
        ...(deleteEnabled === undefined ? {} : { deleteEnabled }),
        ...(freshnessSeconds === undefined ? {} : { freshnessSeconds }),
        // null goes back to the default: the setting is removed.
        ...(body.watch === undefined ? {} : { watch: body.watch ?? undefined }),
        ...(body.watchIntervalSeconds === undefined
          ? {}
          : { watchIntervalSeconds: body.watchIntervalSeconds ?? undefined }),
        ...(access === undefined ? {} : { access }),
        ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
        // An empty list takes the setting off.
        ...(body.textColumns === undefined
          ? {}
          : {
              textColumns: body.textColumns.length === 0 ? undefined : body.textColumns,
            }),
      };
      if (body.textColumns !== undefined) checkTextColumns(sheet.columns, body.textColumns);
      const updated = await sheets.update(sheet.id, {
        ...(name === undefined ? {} : { name }),
        settings,
      });
      return describeSheet(updated);
    },
  );

  app.delete(
    '/admin/v1/sheets/:sheetId',
    {
      schema: {
        summary: 'Remove a sheet and all its rows (the spreadsheet it mirrors is left alone)',
        ...adminOperation('deleteSheet', 'sheets'),
        params: adminParams,
        response: { 204: Type.Null(), ...problemResponses('deleteSheet') },
      },
    },
    async (request: SheetRequest, reply) => {
      await sheets.remove(request.params.sheetId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/admin/v1/sheets/:sheetId/refresh',
    {
      schema: {
        summary: 'Re-read a sheet from the spreadsheet it mirrors, now',
        ...adminOperation('refreshSheet', 'sheets'),
        params: adminParams,
        response: { 200: named('Sheet'), ...problemResponses('refreshSheet') },
      },
    },
    async (request: SheetRequest) => describeSheet(await sheets.refresh(request.params.sheetId)),
  );

  await app.register(keyRoutes, { sheets });
  await app.register(webhookRoutes, { sheets, allowPrivate: allowPrivateWebhooks });

  app.get(
    '/admin/v1/providers',
    {
      schema: {
        summary: 'Which spreadsheet services this server can reach, and as whom',
        ...adminOperation('getProviders', 'sheets'),
        response: {
          200: providersDescription(sheets.providers.kinds()),
          ...problemResponses('getProviders'),
        },
      },
    },
    async () => sheets.providers.statuses(),
  );
}
