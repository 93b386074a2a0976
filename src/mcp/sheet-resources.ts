import type { FastifyInstance } from 'fastify';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Identity } from '../access/access-control.ts';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { callApi, type Agent } from './row-api-call.ts';

/** Rows a resource holds; past it, `query_rows` pages through the rest. */
export const resourceRowCap = 500;

/** MCP's code for a resource that does not exist. */
const resourceNotFound = -32002;

export const resourceUri = (sheetId: string) => `sheetport://sheets/${sheetId}`;

function sheetIdOf(uri: string): string {
  const id = /^sheetport:\/\/sheets\/([A-Za-z0-9_-]{1,64})$/.exec(uri)?.[1];
  if (id === undefined) {
    throw new McpError(
      resourceNotFound,
      `No resource ${uri}: resources are sheetport://sheets/<sheet id>.`,
    );
  }
  return id;
}

/**
 * Each sheet a caller may read, as the resource `sheetport://sheets/<id>`: its rows as JSON, up
 * to `resourceRowCap`, read through the row API with the caller's credential.
 */
export class SheetResources {
  constructor(
    private readonly app: FastifyInstance,
    private readonly sheets: Sheets,
  ) {}

  async list(
    identity: Identity,
  ): Promise<{ uri: string; name: string; mimeType: string; description: string }[]> {
    if (identity.kind === 'key' && !identity.scopes.includes('read')) return [];
    const sheets =
      identity.kind === 'admin'
        ? await this.sheets.list()
        : [await this.sheets.find(identity.sheetId)].filter((sheet) => sheet !== null);
    return sheets.map((sheet) => ({
      uri: resourceUri(sheet.id),
      name: sheet.name,
      mimeType: 'application/json',
      description: `The rows of sheet "${sheet.name}" (${sheet.rowCount} rows; the first ${resourceRowCap} here)`,
    }));
  }

  /** The sheet a resource names, once the caller is seen to be allowed to read its rows. */
  async readable(identity: Identity, agent: Agent, uri: string): Promise<Sheet> {
    const id = sheetIdOf(uri);
    const probe = await callApi(this.app, agent, { method: 'GET', url: `/api/v1/${id}?_limit=0` });
    const sheet = probe.status === 200 ? await this.sheets.find(id) : null;
    if (sheet === null || (identity.kind === 'key' && identity.sheetId !== id)) {
      throw new McpError(resourceNotFound, `No resource ${uri} you may read.`);
    }
    return sheet;
  }

  async read(identity: Identity, agent: Agent, uri: string) {
    const sheet = await this.readable(identity, agent, uri);
    const answer = await callApi(this.app, agent, {
      method: 'GET',
      // Rows carry their keys, as query_rows answers them, unless a column already has the name.
      url: `/api/v1/${sheet.id}?_limit=${resourceRowCap}${sheet.columns.includes('_key') ? '' : '&_with_key=true'}`,
    });
    if (answer.status !== 200)
      throw new McpError(resourceNotFound, `No resource ${uri} you may read.`);
    const total = Number(answer.headers['x-total-count']);
    const rows = answer.body as unknown[];
    const body = {
      sheet: sheet.name,
      total,
      rows,
      ...(total > rows.length
        ? {
            note: `The first ${rows.length} of ${total} rows; query_rows with limit and offset reads the rest.`,
          }
        : {}),
    };
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
  }
}
