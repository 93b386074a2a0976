import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** The MCP endpoint of a server given by its base URL (or by the endpoint itself). */
export function mcpEndpoint(server: string): URL {
  const url = new URL(server);
  if (!url.pathname.endsWith('/mcp')) url.pathname = `${url.pathname.replace(/\/$/, '')}/mcp`;
  return url;
}

/**
 * Relays MCP messages between standard input and output (how desktop clients start a server)
 * and a Sheetport server's `/mcp`, with an API key or the administrator token. Resolves when
 * either side closes.
 */
export async function bridgeStdio(server: string, credential: string | undefined): Promise<void> {
  const remote = new StreamableHTTPClientTransport(mcpEndpoint(server), {
    requestInit: {
      headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` },
    },
  });
  const local = new StdioServerTransport();
  /** Requests sent on, by id, to learn which answer is the `initialize` one. */
  const initializing = new Set<string | number>();
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializing.add(message.id);
    remote.send(message).catch((error: unknown) => {
      // A request the server never answered gets an answer here, so the client is not left
      // waiting; notifications have none to get.
      if (!isJSONRPCRequest(message)) return;
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32000,
          message: `Sheetport at ${server} did not answer: ${error instanceof Error ? error.message : String(error)}`,
        },
      });
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    remote.onclose = () => resolve();
    // The client closing its end of the pipe is how it says it is done.
    process.stdin.once('end', () => resolve());
  });
  await remote.start();
  await local.start();
  await closed;
  await Promise.allSettled([remote.close(), local.close()]);
}
