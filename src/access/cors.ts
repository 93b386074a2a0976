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
 *
 * A request without an `Origin` header is not a cross-origin one (browsers send it with every
 * CORS request and preflight), so it is answered without CORS headers and without looking its
 * sheet up here; `Vary: Origin` still tells caches that the answer depends on it. The callback
 * form of the delegator, rather than a promise, spares every request a promise chain.
 */
export async function registerCors(app: FastifyInstance, sheets: SheetLookup): Promise<void> {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (
      request: FastifyRequest,
      answer: (error: Error | null, options: FastifyCorsOptions) => void,
    ) => {
      const sheetId =
        request.headers.origin === undefined ? undefined : rowPath.exec(request.url)?.[1];
      if (sheetId === undefined) return answer(null, noOrigin);
      sheets.lookup(request, decodeURIComponent(sheetId)).then(
        (sheet) => answer(null, optionsFor(sheet === null ? [] : allowedOriginsOf(sheet))),
        (error: Error) => answer(error, noOrigin),
      );
    },
  });
}

function optionsFor(allowed: string[]): FastifyCorsOptions {
  if (allowed.includes('*')) return anyOrigin;
  return allowed.length === 0 ? noOrigin : { ...noOrigin, origin: allowed };
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
