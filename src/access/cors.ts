import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Sheet } from '../model/sheet.ts';
import { allowedOriginsOf } from './access-control.ts';

const rowPath = /^\/api\/v1\/(?:sheets\/)?([^/?]+)/;

/** How CORS finds the sheet a request names: the request's own lookup (see `Sheets.lookup`). */
export interface SheetLookup {
  lookup(request: object, id: string): Promise<Sheet | null>;
}

/**
 * Cross-origin access, sheet by sheet: a browser page may call a sheet's row API when its origin
 * is among the sheet's allowed origins. The management API is never offered to other origins.
 */
export async function registerCors(app: FastifyInstance, sheets: SheetLookup): Promise<void> {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: async (request: FastifyRequest): Promise<FastifyCorsOptions> => {
      const sheetId = rowPath.exec(request.url)?.[1];
      const sheet =
        sheetId === undefined ? null : await sheets.lookup(request, decodeURIComponent(sheetId));
      const allowed = sheet === null ? [] : allowedOriginsOf(sheet);
      if (allowed.includes('*')) return anyOrigin;
      return allowed.length === 0 ? noOrigin : { ...noOrigin, origin: allowed };
    },
  });
}

/** What every sheet's CORS answers share; only the origins differ (built once, not per request). */
const noOrigin: FastifyCorsOptions = {
  origin: false,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: [
    'content-type',
    'authorization',
    'x-api-key',
    'if-none-match',
    'if-match',
    'last-event-id',
    'idempotency-key',
  ],
  exposedHeaders: [
    'etag',
    'x-total-count',
    'link',
    'retry-after',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'content-disposition',
    'idempotent-replayed',
  ],
  maxAge: 600,
  strictPreflight: false,
};
const anyOrigin: FastifyCorsOptions = { ...noOrigin, origin: '*' };
