import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '../access/access-control.ts';
import { checkArguments } from './check-arguments.ts';
import type { Agent } from './row-api-call.ts';
import type { Subscriptions } from './subscriptions.ts';
import type { ToolCalls } from './tool-calls.ts';
import { toolNames, toolsFor, type ToolName } from './tools.ts';
import { resourceUri, type SheetResources } from './sheet-resources.ts';

/** Everything an MCP server of one caller needs; `subscriptions` is null without a session. */
export interface McpServerDeps {
  calls: ToolCalls;
  resources: SheetResources;
  identity: Identity;
  agent: Agent;
  subscriptions: Subscriptions | null;
  version: string;
}

const instructions =
  'Sheetport serves spreadsheets as tables of rows. Call list_sheets, then describe_sheet for a sheet\u2019s columns and filter syntax. Writes with an idempotency_key are applied once however often they are retried.';

const textResult = (result: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(result) }],
  structuredContent: result,
});

const toolError = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/**
 * An MCP server for one caller, on the SDK's low-level `Server`: the tools and resources are
 * described by JSON Schemas written once (the project's schemas are JSON Schema, and the SDK's
 * high-level server would want them again as zod), and checked with Ajv before they run.
 */
export function mcpServer(deps: McpServerDeps): Server {
  const scopes = deps.identity.kind === 'admin' ? null : deps.identity.scopes;
  const server = new Server(
    { name: 'sheetport', version: deps.version },
    {
      capabilities: { tools: {}, resources: { subscribe: true } },
      instructions,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(scopes).map(({ scopes: _scopes, ...tool }) => tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    if (!(toolNames as readonly string[]).includes(name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}; tools/list lists them.`);
    }
    const allowed = toolsFor(scopes).some((tool) => tool.name === name);
    if (!allowed) {
      const needed = toolsFor(null).find((tool) => tool.name === name)?.scopes ?? [];
      const missing = needed.filter((scope) => scopes !== null && !scopes.includes(scope));
      return toolError(
        `forbidden: ${name} needs an API key with the ${missing.map((scope) => `"${scope}"`).join(' and ')} scope${missing.length > 1 ? 's' : ''}; this key may ${scopes?.join(', ') || 'nothing'}.`,
      );
    }
    const args = request.params.arguments ?? {};
    const invalid = checkArguments(name as ToolName, args);
    if (invalid !== null) return toolError(`invalid-arguments: ${invalid}`);
    const outcome = await deps.calls.call(deps.identity, deps.agent, name as ToolName, args);
    return outcome.ok ? textResult(outcome.result) : toolError(outcome.message);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await deps.resources.list(deps.identity),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
    deps.resources.read(deps.identity, deps.agent, request.params.uri),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (deps.subscriptions === null) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        'Subscriptions need a session on this server: initialize again to start one here.',
      );
    }
    const sheet = await deps.resources.readable(deps.identity, deps.agent, request.params.uri);
    deps.subscriptions.add(sheet, resourceUri(sheet.id));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    deps.subscriptions?.remove(request.params.uri);
    return {};
  });
  return server;
}
