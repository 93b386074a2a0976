import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
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
 * CORS request and preflight), so the library does not see it: it is answered without CORS
 * headers, and `Vary: Origin` tells caches that the answer depends on the header. The library
 * would answer it the same, but only after merging its options twice and resolving an origin,
 * which cost up to a tenth of an uncached read. The callback form of the delegator, rather than a
 * promise, spares the others a promise chain.
 */
export async function registerCors(app: FastifyInstance, sheets: SheetLookup): Promise<void> {
  const options = {
    hook: 'onRequest',
    delegator: (
      request: FastifyRequest,
      answer: (error: Error | null, options: FastifyCorsOptions) => void,
    ) => {
      const sheetId = rowPath.exec(request.url)?.[1];
      if (sheetId === undefined) return answer(null, noOrigin);
      sheets.lookup(request, decodeURIComponent(sheetId)).then(
        (sheet) => answer(null, optionsFor(sheet === null ? [] : allowedOriginsOf(sheet))),
        (error: Error) => answer(error, noOrigin),
      );
    },
  } as const;
  // The plugin is called as Fastify would call it (it shares the app's scope: fastify-plugin),
  // on a view of the app whose `onRequest` hooks skip requests without `Origin`.
  await new Promise<void>((resolve, reject) =>
    cors(withOriginOnly(app), options, (error) => (error ? reject(error) : resolve())),
  );
}

/**
 * The app as a plugin registered in its scope sees it (Fastify's own child scopes are made the
 * same way, by `Object.create`), but for `addHook`: an `onRequest` hook added through it runs only
 * for requests that carry `Origin`; the others get `Vary: Origin` and go on.
 */
function withOriginOnly(app: FastifyInstance): FastifyInstance {
  const view = Object.create(app) as FastifyInstance;
  const addHook = (name: string, hook: onRequestHookHandler) => {
    if (name !== 'onRequest' || hook.length !== 3) {
      throw new Error(`@fastify/cors added a ${name} hook this server does not expect`);
    }
    return app.addHook('onRequest', function originOnly(request, reply, done) {
      if (request.headers.origin !== undefined) return hook.call(this, request, reply, done);
      void reply.header('vary', 'Origin');
      done();
    });
  };
  view.addHook = addHook as FastifyInstance['addHook'];
  return view;
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
