import { isLoopbackName } from '../access/browser-guard.ts';
import { ConfigError } from '../errors/config-error.ts';

/** The settings naming a provider's endpoint, which its tokens and data travel to. */
export const endpointSettings = [
  'SHEETPORT_GOOGLE_API_URL',
  'SHEETPORT_GOOGLE_DRIVE_URL',
  'SHEETPORT_GOOGLE_TOKEN_URL',
  'SHEETPORT_MICROSOFT_LOGIN_URL',
  'SHEETPORT_MICROSOFT_GRAPH_URL',
] as const;

/**
 * Refuses an endpoint reached over plain HTTP, which would carry credentials, tokens and rows
 * readable to anyone on the way, unless it is on this machine (loopback: an emulator, a local
 * proxy) or `allowPlainHttp` says the network is trusted (an emulator on a private network).
 */
export function checkEndpoints(
  values: Record<(typeof endpointSettings)[number], string>,
  allowPlainHttp: boolean,
): void {
  if (allowPlainHttp) return;
  for (const name of endpointSettings) {
    const value = values[name];
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`Invalid configuration: ${name} "${value}" is not a URL.`);
    }
    if (url.protocol === 'http:' && !isLoopbackName(url.hostname.toLowerCase())) {
      throw new ConfigError(
        `Invalid configuration: ${name} is ${url.origin}, plain HTTP to another machine, which would carry credentials and rows unencrypted. Use https://, or, for an emulator on a private network, set SHEETPORT_ALLOW_PLAIN_HTTP_ENDPOINTS=true.`,
      );
    }
  }
}
