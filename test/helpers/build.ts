import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApp, type AppDeps, type AppOptions } from '../../src/app.ts';
import { AnswerGuard } from './answer-guard.ts';
import { openTestStore } from './stores.ts';
import type { RowStoreOptions } from '../../src/store/row-store.ts';
import type { SheetStore } from '../../src/store/store.ts';
import { registryOf } from '../../src/providers/providers.ts';
import { ProviderRegistry, type LiveProvider } from '../../src/providers/registry.ts';

export interface TestServer {
  app: FastifyInstance;
  store: SheetStore;
  /** Base URL of the listening server, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Settings that point another server process at the same store. */
  env: Record<string, string>;
}

/**
 * Starts the real application on a free loopback port over a fresh store (see stores.ts), and
 * stops it and removes the store when the test ends. Every answer it sends is checked against
 * its OpenAPI document (see answer-guard.ts): the test fails on any the document does not
 * describe.
 */
export async function build(
  t: TestContext,
  options: Partial<AppOptions> = {},
  /** The configured providers, by name (none by default), or a registry of the test's own. */
  providers: Record<string, LiveProvider | undefined> | ProviderRegistry = {},
  /** The readiness probe and shutdown signal, and options of the store, when a test sets them. */
  extra: Pick<AppDeps, 'readiness' | 'shutdown'> & {
    store?: RowStoreOptions;
    /** Puts a stand-in in front of the store, e.g. one that fails on cue. */
    wrapStore?: (store: SheetStore) => SheetStore;
    /** The providers, made from the store: e.g. with a sign-in that keeps its token there. */
    providersFor?: (store: SheetStore) => ProviderRegistry;
  } = {},
): Promise<TestServer> {
  const { store: storeOptions, wrapStore, providersFor, ...health } = extra;
  const opened = await openTestStore(storeOptions);
  const { env, dispose } = opened;
  const store = wrapStore ? wrapStore(opened.store) : opened.store;
  // The read cache is off unless a test asks for it, so that every read, and every check that a
  // refused request changed nothing, reads the store itself.
  const app = await createApp(
    {
      store,
      providers:
        providersFor?.(store) ??
        (providers instanceof ProviderRegistry ? providers : registryOf(providers)),
      ...health,
    },
    { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0, ...options },
  );
  const guard = new AnswerGuard(app);
  guard.watch(app.server);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(async () => {
    await app.close();
    await dispose();
    guard.check();
  });
  return { app, store, url, env };
}

/** JSON request helper: returns status, headers and the parsed body (or text when not JSON). */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: type.includes('json') && text !== '' ? JSON.parse(text) : text,
  };
}
