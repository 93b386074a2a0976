import type { FastifyInstance } from 'fastify';
import type { McpDeps, McpEndpoint } from './mcp-endpoint.ts';

/**
 * Registers `/mcp`. The MCP SDK loads with the first request, not with the server: a server no
 * agent talks to starts as fast as one without it.
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpDeps): Promise<void> {
  let endpoint: Promise<McpEndpoint> | undefined;
  const load = () =>
    (endpoint ??= import('./mcp-endpoint.ts').then(({ mcpEndpoint }) => mcpEndpoint(app, deps)));
  // Before the server waits for its requests to end: a session's stream never ends itself.
  app.addHook('preClose', async () => {
    if (endpoint !== undefined) (await endpoint).close();
  });
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: async (request, reply) => (await load()).handle(request, reply),
  });
}
