import { Type, type Static } from '@sinclair/typebox';
import envSchema from 'env-schema';

/**
 * Every setting, one typed schema: variables start with `SHEETPORT_`, defaults live here, and a
 * bad value stops start-up with a message that names the variable. The README lists them all.
 */
export const configSchema = Type.Object({
  SHEETPORT_HOST: Type.String({ default: '127.0.0.1', minLength: 1 }),
  SHEETPORT_PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  SHEETPORT_DATA_DIR: Type.String({ default: './data', minLength: 1 }),
  SHEETPORT_BODY_LIMIT: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  SHEETPORT_UPLOAD_LIMIT: Type.Integer({ default: 104_857_600, minimum: 1024 }),
  SHEETPORT_CACHE_SIZE: Type.Integer({ default: 67_108_864, minimum: 0 }),
  SHEETPORT_SYNC: oneOf(['full', 'normal'] as const, 'full'),
  SHEETPORT_DEMO: Type.Boolean({ default: true }),
  SHEETPORT_LOG_LEVEL: oneOf(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
  ),
});

function oneOf<const T extends readonly string[]>(values: T, fallback: T[number]) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: values, default: fallback });
}

type Env = Static<typeof configSchema>;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  bodyLimit: number;
  uploadLimit: number;
  cacheSize: number;
  sync: 'full' | 'normal';
  demo: boolean;
  logLevel: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the settings from `env` (the process environment by default); throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const data = Object.fromEntries(
    Object.entries(env).filter(([name]) => name.startsWith('SHEETPORT_')),
  );
  let parsed: Env;
  try {
    parsed = envSchema<Env>({ schema: configSchema, data, env: false, dotenv: false });
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${describe(error)}`);
  }
  return {
    host: parsed.SHEETPORT_HOST,
    port: parsed.SHEETPORT_PORT,
    dataDir: parsed.SHEETPORT_DATA_DIR,
    bodyLimit: parsed.SHEETPORT_BODY_LIMIT,
    uploadLimit: parsed.SHEETPORT_UPLOAD_LIMIT,
    cacheSize: parsed.SHEETPORT_CACHE_SIZE,
    sync: parsed.SHEETPORT_SYNC,
    demo: parsed.SHEETPORT_DEMO,
    logLevel: parsed.SHEETPORT_LOG_LEVEL,
  };
}

interface SchemaError {
  instancePath: string;
  message?: string;
  params: { allowedValues?: unknown[] };
}

function describe(error: unknown): string {
  const errors = (error as { errors?: SchemaError[] }).errors;
  if (!Array.isArray(errors)) return error instanceof Error ? error.message : String(error);
  return errors
    .map((e) => {
      const allowed = e.params.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : '';
      return `${e.instancePath.replace(/^\//, '')} ${e.message ?? 'is invalid'}${allowed}`;
    })
    .join('; ');
}
