import { createRequire } from 'node:module';
import { ConfigError } from '../errors/config-error.ts';

export type LogFormatSetting = 'auto' | 'pretty' | 'json';

/** pino-pretty's entry point, or null when the package is not installed. */
export function installedPrettifier(): string | null {
  try {
    return createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return null;
  }
}

/**
 * Which prettifier formats the log, if any, for SHEETPORT_LOG_FORMAT: `json` never, `pretty`
 * always (and refuses to start without pino-pretty), `auto` when stdout is a terminal and
 * pino-pretty is there. Undefined means JSON lines.
 */
export function prettifierFor(
  setting: LogFormatSetting,
  terminal: boolean,
  prettifier: string | null = installedPrettifier(),
): string | undefined {
  if (setting === 'json' || (setting === 'auto' && !terminal)) return undefined;
  if (prettifier === null && setting === 'pretty') {
    throw new ConfigError(
      'SHEETPORT_LOG_FORMAT is pretty, but the pino-pretty package is not installed: install it (npm install pino-pretty), or set SHEETPORT_LOG_FORMAT=json.',
    );
  }
  return prettifier ?? undefined;
}
