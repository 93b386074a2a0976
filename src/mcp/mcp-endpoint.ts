import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessControl, Identity } from '../access/access-control.ts';
import { hostName, isCrossSite } from '../access/browser-guard.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { McpSessions } from './mcp-sessions.ts';
import { mcpServer } from './mcp-server.ts';
import type { Agent } from './row-api-call.ts';
import { SheetResources } from './sheet-resources.ts';
import type { Subscriptions } from './subscriptions.ts';
import { ToolCalls } from './tool-calls.ts';

export interface McpDeps {
  sheets: Sheets;
  access: AccessControl;
  /** Host names besides the request's own that pages may send MCP requests from. */
  allowedHosts: readonly string[];
  version: string;
}

export interface McpEndpoint {
  handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** Ends every session, and with them their streams, which would never end themselves. */
  close(): void;
}

function agentOf(request: FastifyRequest): Agent {
  const { authorization } = request.headers;
  const apiKey = request.headers['x-api-key'];
  return {
    authorization:
      authorization !== undefined
        ? { name: 'authorization', value: authorization }
        : typeof apiKey === 'string'
          ? { name: 'x-api-key', value: apiKey }
          : null,
    address: request.ip,
    host: request.headers.host ?? 'localhost',
  };
}

/** A JSON-RPC error answered before the transport sees the request. */
function rpcError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code: -32001, message }, id: null });
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, for AI agents. Every request is
 * authenticated as the row API's are; tools run as row API requests (see tool-calls.ts), so
 * they work on any server, with or without the session that `initialize` opened; a session
 * lives on the server that opened it and carries the subscriptions and their stream.
 */
export function mcpEndpoint(app: FastifyInstance, deps: McpDeps): McpEndpoint {
  const calls = new ToolCalls(app, deps.sheets);
  const resources = new SheetResources(app, deps.sheets);
  const sessions = new McpSessions(deps.sheets);
  const allowedHosts = new Set(deps.allowedHosts);
  const serverFor = (identity: Identity, agent: Agent, subscriptions: Subscriptions | null) =>
    mcpServer({ calls, resources, identity, agent, subscriptions, version: deps.version });

  return {
    close: () => sessions.closeAll(),
    handle: async (request, reply) => {
      // The transport's own defence against DNS rebinding: a page of another site may not
      // drive an agent's session (the Host is checked before, as for every route).
      const origin = request.headers.origin;
      const originName =
        origin === undefined ? null : hostName(URL.canParse(origin) ? new URL(origin).host : '');
      if (isCrossSite(request.headers) && (originName === null || !allowedHosts.has(originName))) {
        throw new Problem(
          'cross-site-refused',
          `MCP requests from a page of another site (Origin ${origin ?? 'unknown'}) are refused; add its host to SHEETPORT_ALLOWED_HOSTS to allow it.`,
        );
      }
      const identity = await deps.access.identify(request);
      const agent = agentOf(request);
      const sessionId = request.headers['mcp-session-id'];
      let session = typeof sessionId === 'string' ? sessions.get(sessionId, identity) : undefined;
      if (request.method === 'POST' && isInitializeRequest(request.body)) {
        session = sessions.open(
          identity,
          (subscriptions) => serverFor(identity, agent, subscriptions),
          (server) => async (uri) => {
            try {
              await resources.readable(identity, agent, uri);
            } catch {
              return false;
            }
            await server.sendResourceUpdated({ uri });
            return true;
          },
        );
        await session.server.connect(session.transport);
      }
      if (session !== undefined) {
        if (request.method === 'GET') {
          session.streams++;
          reply.raw.once('close', () => session.streams--);
        }
        reply.hijack();
        await session.transport.handleRequest(request.raw, reply.raw, request.body);
        return reply;
      }
      if (request.method !== 'POST') {
        return typeof sessionId === 'string'
          ? rpcError(reply, 404, 'Session not found: initialize a new session.')
          : rpcError(reply, 400, 'A GET or DELETE names its session: send Mcp-Session-Id.');
      }
      // A session this server does not know (another server's, or one closed): tools, lists
      // and reads need none, so the request is served on its own.
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      const server = serverFor(identity, agent, null);
      reply.raw.once('close', () => void server.close().catch(() => undefined));
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
      return reply;
    },
  };
}
