import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Sheets } from '../sheets/sheets.ts';
import { ColumnKinds } from './column-kinds.ts';
import { problemResponses } from './operation-problems.ts';
import { documentedOnce, rowOperation } from './schemas.ts';
import { sheetDocument } from './sheet-document.ts';

const schema = {
  summary: "This sheet's own OpenAPI document, its rows typed by what its cells hold",
  description:
    "An OpenAPI 3.1 document of this sheet's row API: a `Row` schema with each column and the types its cells hold now (number, text, boolean, dates and times as text, and null), each column as a filter parameter, and the bodies of POST, PUT, PATCH and upsert. The types follow edits. `npx openapi-typescript <this URL> -o sheet.d.ts` makes the types of a typed client. Access is that of a read of the rows.",
  ...rowOperation('describeSheetApi'),
  response: {
    200: {
      description: 'The OpenAPI document of this sheet',
      content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
    },
    ...problemResponses('describeSheetApi'),
  },
};

/**
 * `GET /api/v1/<sheet_id>/openapi.json`. Its access is that of a read of the rows (checked by
 * the row routes' hook).
 */
export async function sheetDocumentRoutes(
  app: FastifyInstance,
  { sheets }: { sheets: Sheets },
): Promise<void> {
  const kinds = new ColumnKinds(sheets);
  for (const url of ['/api/v1/:sheetId/openapi.json', '/api/v1/sheets/:sheetId/openapi.json']) {
    app.get(
      url,
      { schema: documentedOnce(schema, url) },
      async (request: FastifyRequest<{ Params: { sheetId: string } }>) => {
        const sheet = await sheets.loadFresh(request, request.params.sheetId);
        return sheetDocument(sheet, await kinds.of(sheet));
      },
    );
  }
}
