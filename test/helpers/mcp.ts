import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The official SDK's client on a server's /mcp, with a credential or none; closed after `t`. */
export async function connectAgent(
  t: TestContext,
  url: string,
  credential: string | null,
): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: {
        headers: credential === null ? {} : { authorization: `Bearer ${credential}` },
      },
    }),
  );
  t.after(() => client.close());
  return client;
}

/** A tool's result, which must not be an error, with its text block the same JSON. */
export function structured(result: unknown): Record<string, unknown> {
  const outcome = result as CallToolResult;
  assert.notEqual(outcome.isError, true, JSON.stringify(outcome.content));
  const text = (outcome.content[0] as { text: string }).text;
  assert.deepEqual(JSON.parse(text), outcome.structuredContent, 'the text block is the same JSON');
  return outcome.structuredContent as Record<string, unknown>;
}

/** The text of a tool error, which the result must be. */
export function errorText(result: unknown): string {
  const outcome = result as CallToolResult;
  assert.equal(outcome.isError, true, `expected a tool error, got ${JSON.stringify(outcome)}`);
  return (outcome.content[0] as { text: string }).text;
}
