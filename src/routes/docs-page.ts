import swagger, { type StaticDocumentSpec } from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { servedOnFirstUse } from './served-on-first-use.ts';

/**
 * `/docs` (Swagger UI) loads its own scripts and styles from this server and calls only this
 * server's API, so its policy allows that and nothing else; like the console, it may not be
 * framed, so no other page can lay it under a click. Swagger UI sets inline styles as it
 * renders, which styles from this server alone would refuse: inline styles are allowed, scripts
 * are not (a style runs no code). Swagger UI's own default policy would allow framing by the
 * same origin and upgrade every request to https, which a server on http://127.0.0.1 cannot
 * answer.
 */
export const docsPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Serves /docs under that policy: the headers are set by a hook of a context of its own, so that
 * they reach every answer under it, the assets Swagger UI serves as files included. Swagger UI
 * and its file server load at the first request under /docs, not at every start: they run in an
 * app of their own, given this server's OpenAPI document, complete once the server is ready.
 */
export async function docsPage(app: FastifyInstance): Promise<void> {
  await app.register(async (docs) => {
    docs.addHook('onRequest', async (_request, reply) => {
      void reply.headers({
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
    });
    // The document is OpenAPI 3.1, which the static mode serves as given, though its types name
    // only 2.0 and 3.0.
    const handler = servedOnFirstUse(app, () =>
      swaggerUiApp(app.swagger() as StaticDocumentSpec['document']),
    );
    for (const url of ['/docs', '/docs/*']) docs.get(url, { schema: { hide: true } }, handler);
  });
}

async function swaggerUiApp(document: StaticDocumentSpec['document']): Promise<FastifyInstance> {
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  const ui = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  await ui.register(swagger, { mode: 'static', specification: { document } });
  await ui.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: docsPolicy,
    // The validator badge loads an image from validator.swagger.io: nothing leaves this server.
    uiConfig: { validatorUrl: null },
  });
  await ui.ready();
  return ui;
}
