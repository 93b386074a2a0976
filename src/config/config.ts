import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from '../errors/config-error.ts';
import { checkEndpoints } from './plain-http.ts';
import { readSettings } from './read-settings.ts';
import { hostName } from '../access/browser-guard.ts';
import type { Limits } from '../access/limits.ts';
import { providerEnv, providerSettings, type ProviderSettings } from '../providers/providers.ts';
import { defaultEventSettings, type EventSettings } from '../sheets/event-settings.ts';
import type { IdempotencySettings } from '../sheets/idempotency-keys.ts';

/**
 * Every setting, one typed schema: variables start with `SHEETPORT_`, defaults live here, and a
 * bad value stops start-up with a message that names the variable. The README lists them all.
 */
export const configSchema = Type.Object({
  SHEETPORT_HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  SHEETPORT_PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  SHEETPORT_DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  SHEETPORT_DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  SHEETPORT_DATABASE_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 1000 }),
  SHEETPORT_DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({
    default: 5000,
    minimum: 100,
    maximum: 600_000,
  }),
  SHEETPORT_BODY_LIMIT: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  SHEETPORT_UPLOAD_LIMIT: Type.Integer({ default: 104_857_600, minimum: 1024 }),
  SHEETPORT_CACHE_SIZE: Type.Integer({ default: 67_108_864, minimum: 0 }),
  SHEETPORT_SYNC: oneOf(['full', 'normal'] as const, 'full'),
  SHEETPORT_DEMO: Type.Boolean({ default: true }),
  ...providerEnv,
  /** Lets provider endpoints be plain http:// on other machines (an emulator on a private network). */
  SHEETPORT_ALLOW_PLAIN_HTTP_ENDPOINTS: Type.Boolean({ default: false }),
  /** Seconds between checks of a watched tab; 0 turns watching off. */
  SHEETPORT_WATCH_INTERVAL_SECONDS: Type.Integer({ default: 10, minimum: 0, maximum: 86_400 }),
  SHEETPORT_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Comma-separated host names, served without an admin token besides the loopback ones. */
  SHEETPORT_ALLOWED_HOSTS: Type.String({ default: '', pattern: '^[A-Za-z0-9.\\-\\[\\]:, ]*$' }),
  SHEETPORT_TRUST_PROXY: Type.Boolean({ default: false }),
  SHEETPORT_RATE_LIMIT_PER_ADDRESS: Type.Integer({ default: 1200, minimum: 0 }),
  SHEETPORT_RATE_LIMIT_PER_KEY: Type.Integer({ default: 1200, minimum: 0 }),
  SHEETPORT_MAX_ROWS_PER_REQUEST: Type.Integer({ default: 1000, minimum: 1 }),
  SHEETPORT_MAX_COLUMNS: Type.Integer({ default: 500, minimum: 1, maximum: 1500 }),
  SHEETPORT_MAX_CELL_LENGTH: Type.Integer({ default: 50_000, minimum: 1 }),
  SHEETPORT_MAX_FILTERS: Type.Integer({ default: 20, minimum: 1 }),
  SHEETPORT_REQUEST_TIMEOUT_MS: Type.Integer({ default: 120_000, minimum: 1000 }),
  SHEETPORT_HEADERS_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 1000 }),
  SHEETPORT_SHUTDOWN_DELAY_MS: Type.Integer({ default: 0, minimum: 0, maximum: 300_000 }),
  /** Seconds a stopping server gives requests in flight and queued writes to finish. */
  SHEETPORT_SHUTDOWN_TIMEOUT: Type.Number({ default: 30, minimum: 0, maximum: 3600 }),
  SHEETPORT_METRICS: Type.Boolean({ default: false }),
  SHEETPORT_WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  SHEETPORT_EVENT_RETENTION_SECONDS: Type.Integer({ default: 604_800, minimum: 1 }),
  SHEETPORT_EVENT_PRUNE_INTERVAL_SECONDS: Type.Integer({
    default: 60,
    minimum: 1,
    maximum: 86_400,
  }),
  SHEETPORT_EVENT_STREAM_RECHECK_SECONDS: Type.Integer({ default: 5, minimum: 1, maximum: 3600 }),
  SHEETPORT_EVENT_STREAM_MAX_UNSENT: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  SHEETPORT_EVENT_STREAMS_PER_ADDRESS: Type.Integer({ default: 10, minimum: 1 }),
  SHEETPORT_EVENT_STREAMS_MAX: Type.Integer({ default: 2000, minimum: 1 }),
  /** Live Idempotency-Keys per credential per sheet; 0 for no bound. */
  SHEETPORT_IDEMPOTENCY_KEYS_PER_CREDENTIAL: Type.Integer({ default: 10_000, minimum: 0 }),
  /** Live Idempotency-Keys per client address per sheet, for callers without a credential. */
  SHEETPORT_IDEMPOTENCY_KEYS_PER_ADDRESS: Type.Integer({ default: 1000, minimum: 0 }),
  /** The most bytes of JSON a problem answer kept with its key takes. */
  SHEETPORT_IDEMPOTENCY_MAX_PROBLEM_BYTES: Type.Integer({
    default: 4096,
    minimum: 512,
    maximum: 1_048_576,
  }),
  /** Expired keys removed per transaction. */
  SHEETPORT_IDEMPOTENCY_PRUNE_BATCH: Type.Integer({ default: 500, minimum: 1, maximum: 100_000 }),
  SHEETPORT_LOG_LEVEL: oneOf(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
  ),
  SHEETPORT_LOG_FORMAT: oneOf(['auto', 'pretty', 'json'] as const, 'auto'),
});

function oneOf<const T extends readonly string[]>(values: T, fallback: T[number]) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: values, default: fallback });
}

type Env = Static<typeof configSchema>;

/** The server's settings, each provider's among them (see providers/providers.ts). */
export interface Config extends ProviderSettings {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file, when set. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** How long a request waits for a database connection before answering 503. */
  databaseConnectTimeoutMs: number;
  bodyLimit: number;
  uploadLimit: number;
  cacheSize: number;
  sync: 'full' | 'normal';
  demo: boolean;
  logLevel: string;
  /** `auto`: pretty on a terminal, JSON lines otherwise. */
  logFormat: 'auto' | 'pretty' | 'json';
  adminToken: string | undefined;
  /** Host names (lower case) served without an admin token besides localhost and loopback. */
  allowedHosts: string[];
  trustProxy: boolean;
  rateLimits: { perAddress: number; perKey: number };
  limits: Limits;
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number };
  /** After SIGTERM, how long to go on serving with /readyz answering 503, before closing. */
  shutdownDelayMs: number;
  shutdownTimeoutMs: number;
  metrics: boolean;
  webhookAllowPrivate: boolean;
  events: EventSettings;
  /** How Idempotency-Keys are bounded (the lease and pruning interval are not settings). */
  idempotency: Pick<
    IdempotencySettings,
    'keysPerCredential' | 'keysPerAddress' | 'maxProblemBytes' | 'pruneBatch'
  >;
  /** Watching mirrored tabs for changes: off when null. */
  watch: { intervalMs: number } | null;
}

/** Reads the settings from `env` (the process environment by default); throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const data = Object.fromEntries(
    Object.entries(env).filter(([name]) => name.startsWith('SHEETPORT_')),
  );
  const read = readSettings(configSchema, data);
  if (!read.ok) throw new ConfigError(`Invalid configuration: ${read.problems.join('; ')}`);
  const parsed: Env = read.settings;
  checkEndpoints(parsed, parsed.SHEETPORT_ALLOW_PLAIN_HTTP_ENDPOINTS);
  return {
    host: parsed.SHEETPORT_HOST,
    port: parsed.SHEETPORT_PORT,
    dataDir: parsed.SHEETPORT_DATA_DIR,
    databaseUrl: parsed.SHEETPORT_DATABASE_URL,
    databasePoolSize: parsed.SHEETPORT_DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: parsed.SHEETPORT_DATABASE_CONNECT_TIMEOUT_MS,
    bodyLimit: parsed.SHEETPORT_BODY_LIMIT,
    uploadLimit: parsed.SHEETPORT_UPLOAD_LIMIT,
    cacheSize: parsed.SHEETPORT_CACHE_SIZE,
    sync: parsed.SHEETPORT_SYNC,
    demo: parsed.SHEETPORT_DEMO,
    logLevel: parsed.SHEETPORT_LOG_LEVEL,
    logFormat: parsed.SHEETPORT_LOG_FORMAT,
    adminToken: parsed.SHEETPORT_ADMIN_TOKEN,
    allowedHosts: allowedHosts(parsed.SHEETPORT_ALLOWED_HOSTS),
    trustProxy: parsed.SHEETPORT_TRUST_PROXY,
    rateLimits: {
      perAddress: parsed.SHEETPORT_RATE_LIMIT_PER_ADDRESS,
      perKey: parsed.SHEETPORT_RATE_LIMIT_PER_KEY,
    },
    limits: {
      rowsPerRequest: parsed.SHEETPORT_MAX_ROWS_PER_REQUEST,
      columnsPerSheet: parsed.SHEETPORT_MAX_COLUMNS,
      cellLength: parsed.SHEETPORT_MAX_CELL_LENGTH,
      filtersPerRequest: parsed.SHEETPORT_MAX_FILTERS,
    },
    timeouts: {
      requestMs: parsed.SHEETPORT_REQUEST_TIMEOUT_MS,
      headersMs: parsed.SHEETPORT_HEADERS_TIMEOUT_MS,
      keepAliveMs: 5_000,
    },
    shutdownDelayMs: parsed.SHEETPORT_SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: Math.round(parsed.SHEETPORT_SHUTDOWN_TIMEOUT * 1000),
    metrics: parsed.SHEETPORT_METRICS,
    webhookAllowPrivate: parsed.SHEETPORT_WEBHOOK_ALLOW_PRIVATE,
    events: {
      ...defaultEventSettings,
      retentionMs: parsed.SHEETPORT_EVENT_RETENTION_SECONDS * 1000,
      pruneIntervalMs: parsed.SHEETPORT_EVENT_PRUNE_INTERVAL_SECONDS * 1000,
      recheckMs: parsed.SHEETPORT_EVENT_STREAM_RECHECK_SECONDS * 1000,
      maxUnsentBytes: parsed.SHEETPORT_EVENT_STREAM_MAX_UNSENT,
      streamsPerAddress: parsed.SHEETPORT_EVENT_STREAMS_PER_ADDRESS,
      streamsPerServer: parsed.SHEETPORT_EVENT_STREAMS_MAX,
    },
    idempotency: {
      keysPerCredential: parsed.SHEETPORT_IDEMPOTENCY_KEYS_PER_CREDENTIAL,
      keysPerAddress: parsed.SHEETPORT_IDEMPOTENCY_KEYS_PER_ADDRESS,
      maxProblemBytes: parsed.SHEETPORT_IDEMPOTENCY_MAX_PROBLEM_BYTES,
      pruneBatch: parsed.SHEETPORT_IDEMPOTENCY_PRUNE_BATCH,
    },
    watch: watchSettings(parsed),
    ...providerSettings(parsed),
  };
}

/** An interval under the shortest gap between two reads of a tab would not be kept: refused. */
function watchSettings(parsed: Env): Config['watch'] {
  const seconds = parsed.SHEETPORT_WATCH_INTERVAL_SECONDS;
  if (seconds === 0) return null;
  if (seconds < 5) {
    throw new ConfigError(
      `SHEETPORT_WATCH_INTERVAL_SECONDS is ${seconds}: it must be 0 (watching off) or 5 or more.`,
    );
  }
  return { intervalMs: seconds * 1000 };
}

/** `sheets.lan, box.local:8080` as host names without their ports, lower case. */
function allowedHosts(setting: string): string[] {
  return setting.split(',').flatMap((entry) => {
    if (entry.trim() === '') return [];
    const name = hostName(entry);
    if (name === null) {
      throw new ConfigError(
        `Invalid configuration: SHEETPORT_ALLOWED_HOSTS holds "${entry.trim()}", which is not a host name.`,
      );
    }
    return [name];
  });
}
