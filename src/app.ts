import { createServer } from 'node:http';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { AccessControl } from './access/access-control.ts';
import { registerBrowserGuard } from './access/browser-guard.ts';
import { registerCors } from './access/cors.ts';
import { defaultLimits, type Limits } from './access/limits.ts';
import { registerRateLimits, type RateLimitOptions } from './access/rate-limits.ts';
import {
  loggerOptions,
  RequestLog,
  sharedRequestLoggers,
  type LogSettings,
} from './logs/request-log.ts';
import { adminRoutes } from './routes/admin-routes.ts';
import { consoleRoutes } from './routes/console-routes.ts';
import { docsPage } from './routes/docs-page.ts';
import { documentOptions } from './routes/openapi-document.ts';
import {
  answerClientError,
  answerFrameworkError,
  registerErrorHandler,
} from './routes/error-handler.ts';
import { registerHealthRoutes, type HealthDeps } from './routes/health-routes.ts';
import type { Metrics } from './metrics/metrics.ts';
import {
  defaultDeliverySettings,
  DeliveryWorker,
  type DeliverySettings,
} from './webhooks/delivery-worker.ts';
import { ReadCache } from './routes/read-cache.ts';
import { registerJsonBody } from './routes/json-body.ts';
import { registerRequestGuard } from './routes/request-guard.ts';
import { sendTogether } from './routes/send-together.ts';
import { sharedSchemaCompilers } from './routes/shared-schemas.ts';
import { rowRoutes } from './routes/row-routes.ts';
import { signInRoutes } from './routes/sign-in-routes.ts';
import { namedSchemas } from './routes/named-schemas.ts';
import { EventPruner } from './sheets/event-pruner.ts';
import { defaultEventSettings, type EventSettings } from './sheets/event-settings.ts';
import { SheetMirror } from './sheets/sheet-mirror.ts';
import { readingTextColumns } from './sheets/text-column-reads.ts';
import { SheetTurns } from './sheets/sheet-turns.ts';
import { Sheets } from './sheets/sheets.ts';
import { WriteQueue } from './sheets/write-queue.ts';
import { writePaths } from './sheets/write-paths.ts';
import {
  defaultIdempotencySettings,
  IdempotencyKeys,
  type IdempotencySettings,
} from './sheets/idempotency-keys.ts';
import { startWatching, type WatchOptions } from './sheets/start-watching.ts';
import { registryOf } from './providers/providers.ts';
import { mcpRoutes } from './mcp/mcp-routes.ts';
import { packageVersion } from './config/package-version.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import type { SheetStore } from './store/store.ts';

export interface AppDeps extends HealthDeps {
  store: SheetStore;
  /** The spreadsheet services sheets can mirror, and their sign-ins; none configured when unset. */
  providers?: ProviderRegistry;
  /** Aborted when a stopping server gives up waiting: writes still queued are refused (503). */
  stopWrites?: AbortSignal;
}

export interface AppOptions {
  bodyLimit: number;
  uploadLimit: number;
  /** Bytes of read answers kept in memory; 0 turns the cache off. */
  cacheSize: number;
  /** Unset: nothing is logged. */
  logger?: LogSettings;
  /** Unset: every caller is the administrator (the server then listens on loopback only). */
  adminToken?: string | undefined;
  /** Without an admin token, host names served besides loopback ones (see browser-guard.ts). */
  allowedHosts?: readonly string[];
  rateLimits?: RateLimitOptions;
  limits?: Limits;
  /** Take the client address from X-Forwarded-For, behind a load balancer. */
  trustProxy?: boolean;
  timeouts?: { requestMs: number; headersMs: number; keepAliveMs: number };
  /** How row events are kept and streamed; the defaults of `defaultEventSettings` otherwise. */
  events?: Partial<EventSettings>;
  /** How webhooks are delivered; the defaults of `defaultDeliverySettings` otherwise. */
  webhooks?: Partial<DeliverySettings>;
  /** Serve `GET /metrics` in the Prometheus text format (behind the admin token, when set). */
  metrics?: boolean;
  /** How `Idempotency-Key`s are held and pruned; `defaultIdempotencySettings` otherwise. */
  idempotency?: Partial<IdempotencySettings>;
  /** Watch the mirrored tabs someone listens to for changes made upstream; off when unset. */
  watch?: WatchOptions;
}

const defaultTimeouts = { requestMs: 120_000, headersMs: 10_000, keepAliveMs: 5_000 };

/** Builds the HTTP application around a store. It never listens: see `server.ts`. */
export async function createApp(deps: AppDeps, options: AppOptions): Promise<FastifyInstance> {
  const timeouts = options.timeouts ?? defaultTimeouts;
  const app = Fastify({
    // A slow or stalled client may hold a connection only so long (slowloris and friends). Node
    // checks these timeouts periodically: every second here, rather than its default 30 s.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: timeouts.headersMs,
          requestTimeout: timeouts.requestMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: 1000,
          // Checked by the request guard instead, which answers with a problem document.
          requireHostHeader: false,
        },
        handler,
      ),
    ...(options.logger === undefined
      ? { logger: false }
      : { logger: loggerOptions(options.logger), childLoggerFactory: sharedRequestLoggers() }),
    logController: new RequestLog(),
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy ?? false,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Requests arriving while the app closes are refused by the health routes' hook instead.
    return503OnClosing: false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    routerOptions: { ignoreTrailingSlash: true },
    // verbose: a failed check carries the schema it broke, which the message names values from.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, verbose: true } },
    schemaController: { compilersFactory: sharedSchemaCompilers() },
  });
  registerErrorHandler(app);
  registerJsonBody(app);
  registerRequestGuard(app);
  sendTogether(app);
  registerBrowserGuard(app, {
    adminTokenSet: options.adminToken !== undefined,
    allowedHosts: options.allowedHosts ?? [],
  });
  registerHealthRoutes(app, deps);
  const providers = deps.providers ?? registryOf();
  for (const schema of namedSchemas(providers.kinds())) app.addSchema(schema);
  await app.register(swagger, documentOptions);
  await docsPage(app);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const access = new AccessControl(deps.store, { adminToken: options.adminToken });
  // prom-client loads only for a server that serves metrics.
  const metrics: Metrics | null =
    options.metrics === true
      ? (await import('./routes/metrics-routes.ts')).registerMetrics(
          app,
          { store: deps.store, providers },
          access,
        )
      : null;
  // The write path, built bottom up: the sheets' turns, the mirror of provider-backed sheets,
  // the queue that commits on each sheet's path, then the sheets the routes are given.
  const store = metrics?.timed(deps.store) ?? deps.store;
  const turns = new SheetTurns();
  const mirror = new SheetMirror(
    store,
    (sheet) => {
      const provider = providers.providerOf(sheet.source);
      return provider === null ? null : readingTextColumns(provider, sheet);
    },
    turns,
  );
  const queue = new WriteQueue(store, turns, writePaths(store, mirror, providers), (kind, writes) =>
    metrics?.batch(kind, writes),
  );
  metrics?.countQueue(() => queue.depthByKind());
  const sheets = new Sheets({ store, providers, queue, mirror });
  deps.stopWrites?.addEventListener('abort', () => sheets.stopWrites(), { once: true });
  const cache = new ReadCache(options.cacheSize, (hit) => metrics?.cacheLookup(hit));
  store.onAppended((appended) => cache.appended(appended));
  const limits = options.limits ?? defaultLimits;
  await registerCors(app, sheets);
  const keyLimit = await registerRateLimits(
    app,
    deps.store,
    options.rateLimits ?? { perAddress: 0, perKey: 0 },
  );
  const keys = new IdempotencyKeys(
    store,
    { ...defaultIdempotencySettings, ...options.idempotency },
    (error) => app.log.warn({ err: error }, 'idempotency key'),
  );
  keys.startPruning();
  app.addHook('onClose', () => keys.stopPruning());
  const events = { ...defaultEventSettings, ...options.events };
  await app.register(rowRoutes, {
    sheets,
    cache,
    access,
    keyLimit,
    limits,
    keys,
    events,
  });
  const delivery = { ...defaultDeliverySettings, ...options.webhooks };
  await app.register(adminRoutes, {
    sheets,
    uploadLimit: options.uploadLimit,
    access,
    limits,
    allowPrivateWebhooks: delivery.allowPrivate,
  });
  // Webhook deliveries run beside the API, woken by this server's writes.
  const worker = new DeliveryWorker(deps.store, delivery, app.log, (delivered) =>
    metrics?.webhookAttempt(delivered),
  );
  sheets.events.subscribeAll((sheetId) => worker.written(sheetId));
  sheets.events.onWebhookAdded((sheetId) => worker.watch(sheetId));
  worker.start();
  app.addHook('onClose', () => worker.stop());
  const pruner = new EventPruner(deps.store, { ...events, giveUpMs: delivery.giveUpMs }, app.log);
  pruner.start();
  app.addHook('onClose', () => pruner.stop());
  if (options.watch !== undefined) {
    startWatching(app, { sheets, providers, store: deps.store, metrics }, options.watch);
  }
  await app.register(mcpRoutes, {
    sheets,
    access,
    allowedHosts: options.allowedHosts ?? [],
    version: packageVersion,
  });
  await app.register(signInRoutes, { providers, access });
  app.addHook('onClose', () => providers.close());
  await app.register(consoleRoutes);
  return app;
}
