import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app.ts';
import type { Config } from './config/config.ts';
import { holdServerLease } from './store/server-lease.ts';
import { ConfigError } from './errors/config-error.ts';
import { seedDemoSheet } from './demo/demo-sheet.ts';
import { prettifierFor } from './logs/log-format.ts';
import { openProviders } from './providers/providers.ts';
import { openPostgresStore, openSqliteStore } from './store/open-store.ts';
import type { SheetStore } from './store/store.ts';

/** PostgreSQL when SHEETPORT_DATABASE_URL is set, else the embedded SQLite file. */
export async function openStore(config: Config): Promise<SheetStore> {
  if (config.databaseUrl !== undefined) {
    return openPostgresStore({
      connectionString: config.databaseUrl,
      poolSize: config.databasePoolSize,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
    });
  }
  return openSqliteStore({ path: join(config.dataDir, 'sheetport.db'), synchronous: config.sync });
}

/** Opens the store, serves the API, and closes both cleanly on SIGINT or SIGTERM. */
export async function serve(config: Config): Promise<FastifyInstance> {
  if (config.adminToken === undefined && !isLoopback(config.host)) {
    throw new ConfigError(
      `SHEETPORT_HOST is ${config.host}, but without SHEETPORT_ADMIN_TOKEN anyone who reaches the server could manage every sheet. Set SHEETPORT_ADMIN_TOKEN (16 characters or more), or listen on 127.0.0.1.`,
    );
  }
  const store = await openStore(config);
  const providers = await openProviders(config, {
    credentials: store.credentials,
    onError: (error, what) => app.log.error({ err: error }, what),
  });
  const shutdown = new AbortController();
  const stopWrites = new AbortController();
  const app = await createApp(
    {
      store,
      providers,
      // The store opens once its migrations are done, so an answer means both.
      readiness: () => store.database.ping(),
      shutdown: shutdown.signal,
      stopWrites: stopWrites.signal,
    },
    {
      bodyLimit: config.bodyLimit,
      uploadLimit: config.uploadLimit,
      cacheSize: config.cacheSize,
      logger: {
        level: config.logLevel,
        prettifier: prettifierFor(config.logFormat, process.stdout.isTTY === true),
      },
      adminToken: config.adminToken,
      allowedHosts: config.allowedHosts,
      rateLimits: config.rateLimits,
      limits: config.limits,
      trustProxy: config.trustProxy,
      timeouts: config.timeouts,
      metrics: config.metrics,
      webhooks: { allowPrivate: config.webhookAllowPrivate },
      events: config.events,
      idempotency: config.idempotency,
      ...(config.watch === null ? {} : { watch: { intervalMs: config.watch.intervalMs } }),
    },
  );
  // The lease tells `sheetport import` that this server holds the store; it goes as the server
  // closes, before the store does.
  const lease = await holdServerLease(store, (error) =>
    app.log.warn({ err: error }, 'could not renew the server lease on the store'),
  );
  app.addHook('onClose', async () => {
    await lease.release();
    await store.database.close();
  });
  if (config.adminToken === undefined) {
    app.log.warn(
      'SHEETPORT_ADMIN_TOKEN is not set: listening on loopback only, and every local caller is the administrator. Set it before exposing the server.',
    );
  }
  let demo: Awaited<ReturnType<typeof seedDemoSheet>> | null = null;
  let address: string;
  try {
    demo = config.demo ? await seedDemoSheet(store) : null;
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // A server that cannot listen (the port taken, say) closes what it opened, the store's
    // connections and the app's timers, so that the process ends with the error.
    await app.close().catch(() => undefined);
    throw error;
  }
  warmUp(app);
  if (demo !== null) app.log.info(`demo sheet "${demo.name}" is at ${address}/api/v1/${demo.id}`);
  app.log.info(`sheets: ${address}/admin/v1/sheets, API docs: ${address}/docs`);
  for (const [, provider] of providers.configured()) app.log.info(provider.describe());
  // SIGTERM is how orchestrators stop a server: it first stops being ready, so that load
  // balancers send nothing new, then closes. SIGINT, a person at a terminal, closes at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => stop(app, signal, config, { shutdown, stopWrites }));
  }
  return app;
}

/**
 * Stops the server within SHEETPORT_SHUTDOWN_TIMEOUT of the signal: not ready at once; after
 * the delay (SIGTERM only), no new connections, while requests in flight and writes already
 * queued finish, provider pushes included. Shortly before the timeout, writes still waiting for
 * their turn are refused with 503, having changed nothing; at the timeout the process exits
 * whatever still runs (a write cut off then was never answered, and a mirrored sheet whose push
 * was cut off is read again from its spreadsheet at the next start). Exits 0.
 */
function stop(
  app: FastifyInstance,
  signal: NodeJS.Signals,
  config: Config,
  { shutdown, stopWrites }: { shutdown: AbortController; stopWrites: AbortController },
): void {
  shutdown.abort();
  const timeoutMs = config.shutdownTimeoutMs;
  // Time for the refusals to reach their clients before the process exits.
  const refusalMs = Math.min(1000, timeoutMs / 5);
  const exit = () => process.exit(0);
  setTimeout(() => {
    app.log.warn(`${signal}: ${timeoutMs} ms passed; exiting with work unfinished`);
    exit();
  }, timeoutMs).unref();
  setTimeout(() => {
    app.log.warn(`${signal}: refusing the writes still queued`);
    stopWrites.abort();
  }, timeoutMs - refusalMs).unref();
  const delay = signal === 'SIGTERM' ? Math.min(config.shutdownDelayMs, timeoutMs - refusalMs) : 0;
  if (delay > 0) app.log.info(`${signal}: /readyz answers 503; closing in ${delay} ms`);
  setTimeout(() => {
    app.log.info(`${signal}: finishing requests in flight and queued writes`);
    void app.close().then(exit, exit);
  }, delay);
}

/**
 * What only uploads use, the readers of CSV and XLSX files, loads in the background a second
 * after the server listens: not before (a longer start), nor while the first requests are
 * answered (which it would delay), nor with the first upload.
 */
function warmUp(app: FastifyInstance): void {
  setTimeout(() => {
    import('./files/import-file.ts').catch((error: unknown) =>
      app.log.warn({ err: error }, 'warming up failed'),
    );
  }, 1000).unref();
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
