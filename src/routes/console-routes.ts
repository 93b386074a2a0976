import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { packageRoot } from '../config/package-root.ts';
import { servedOnFirstUse } from './served-on-first-use.ts';

/** Where `vite build web` writes the console: dist/web, from src/ and from the bundle alike. */
export const consoleDir = join(packageRoot, 'dist', 'web');

/**
 * The console's page allows nothing but this server: no inline script, no other origin, no
 * framing. The administrator token it holds can only be sent back here.
 */
const pageHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const notBuilt = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sheetport</title>
<p>The console is not built. Run <code>npm run build</code> (or <code>npm ci</code>), then restart
the server. The API answers meanwhile: <a href="/docs">/docs</a>.</p></html>`;

/**
 * Serves the console, a single page built into dist/web, at `/` and its assets under `/assets/`.
 * Only the files that exist get routes, so nothing under /api, /admin or /docs is shadowed; the
 * console itself only calls those public APIs.
 */
export async function consoleRoutes(
  app: FastifyInstance,
  { root = consoleDir }: { root?: string } = {},
): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.code(503).type('text/html; charset=utf-8').headers(pageHeaders).send(notBuilt),
    );
    return;
  }
  const handler = servedOnFirstUse(app, () => consoleFiles(root));
  for (const url of consoleUrls(root)) app.get(url, { schema: { hide: true } }, handler);
}

/**
 * The page at `/` and every file of the console at its path: the routes are made from a listing
 * of the directory at start, and the file server that answers them loads at the first request.
 */
function consoleUrls(root: string): string[] {
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`);
  return ['/', ...files];
}

async function consoleFiles(root: string): Promise<FastifyInstance> {
  const { default: fastifyStatic } = await import('@fastify/static');
  const files = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await files.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (response, path) => {
      // Asset names carry a hash of their content, so they never change; the page always may.
      const asset = path.includes('/assets/');
      response.setHeader(
        'cache-control',
        asset ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      if (!asset)
        for (const [name, value] of Object.entries(pageHeaders)) response.setHeader(name, value);
    },
  });
  await files.ready();
  return files;
}
