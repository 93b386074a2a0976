import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';

export interface BrowserGuardOptions {
  /** With a token, the token is the defence: a page in a browser can neither read nor send it. */
  adminTokenSet: boolean;
  /** Host names served besides the loopback ones (SHEETPORT_ALLOWED_HOSTS), lower case. */
  allowedHosts: readonly string[];
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Probes from the machine or the orchestrator, which name the server by whatever address. */
const probes = new Set(['/healthz', '/readyz']);

/**
 * The host name of a Host header (`name`, `name:port`, `[v6]:port`), lower case, without a
 * trailing dot; null when it is not one.
 */
export function hostName(host: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::\d*)?$/i.exec(host.trim());
  return match?.[1] === undefined ? null : match[1].toLowerCase().replace(/\.$/, '');
}

/** `localhost`, `127.x.y.z` and `[::1]`: names no DNS answer can point elsewhere. */
export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    name === '[::1]' ||
    /^127\.(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){2}$/.test(name)
  );
}

/**
 * Whether a browser says the request comes from a page of another origin: `Sec-Fetch-Site`
 * other than same-origin or none (typed by the user), or an `Origin` whose host is not the one
 * the request was sent to (the scheme is left aside, as a proxy may end TLS).
 */
export function isCrossSite(headers: FastifyRequest['headers']): boolean {
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true; // "null" (a sandboxed page, a file) or anything else that is no origin
  }
  return originHost === '' || originHost.toLowerCase() !== (headers.host ?? '').toLowerCase();
}

/**
 * Without an administrator token every local caller is the administrator, so what a web page
 * can make a browser send must be refused: requests naming a host other than a loopback or an
 * allowed one (DNS rebinding), and cross-site writes to the management API (a plain HTML form
 * posts without a preflight). The row API keeps its CORS rules: see SECURITY.md.
 */
export function registerBrowserGuard(app: FastifyInstance, options: BrowserGuardOptions): void {
  if (options.adminTokenSet) return;
  const allowed = new Set(options.allowedHosts);
  app.addHook('onRequest', async (request) => {
    if (probes.has(request.routeOptions.url ?? '')) return;
    const name = hostName(request.headers.host ?? '');
    if (name === null || !(isLoopbackName(name) || allowed.has(name))) {
      throw new Problem(
        'host-not-allowed',
        `This server answers to localhost, 127.0.0.1 and [::1]${allowed.size > 0 ? ` and ${[...allowed].join(', ')}` : ''}, not to "${request.headers.host ?? ''}": add the name to SHEETPORT_ALLOWED_HOSTS, or set SHEETPORT_ADMIN_TOKEN.`,
      );
    }
    // The route the router found, not the URL as sent: `/%61dmin/v1/sheets` reaches it too.
    const route = request.routeOptions.url ?? request.url;
    if (
      unsafeMethods.has(request.method) &&
      route.startsWith('/admin/') &&
      isCrossSite(request.headers)
    ) {
      throw new Problem(
        'cross-site-refused',
        'The management API refuses changes sent by a page of another site. Use the console at this address, or a client that is not a browser.',
      );
    }
  });
}
