import type { FastifyInstance } from 'fastify';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { ColumnKinds } from '../routes/column-kinds.ts';
import { callApi, type Agent, type ApiAnswer, type ApiCall } from './row-api-call.ts';
import { filterGuide, type ToolArguments, type ToolName } from './tools.ts';
import type { Identity } from '../access/access-control.ts';

/** What a tool call answers: its result, or the problem the row API answered, for the agent. */
export type ToolOutcome =
  { ok: true; result: Record<string, unknown> } | { ok: false; message: string; problem?: unknown };

const failed = (message: string, problem?: unknown): ToolOutcome => ({
  ok: false,
  message,
  problem,
});

/** A problem document as one sentence an agent can act on, its code and status first. */
function problemText(answer: ApiAnswer): string {
  const problem = answer.body as { code?: string; title?: string; detail?: string } | null;
  const code = problem?.code ?? `http-${answer.status}`;
  const retry = answer.headers['retry-after'];
  return `${code} (${answer.status}): ${problem?.detail ?? problem?.title ?? 'the request failed'}${retry === undefined ? '' : ` Retry after ${String(retry)} s.`}`;
}

/** `_or` text for one-column filters: `\|`, `\\` and, in a column name, `\=` escaped. */
function orText(alternatives: Record<string, string>[]): string {
  const escape = (text: string, name: boolean) =>
    text.replace(name ? /[\\|=]/g : /[\\|]/g, (char) => `\\${char}`);
  return alternatives
    .flatMap((alternative) => Object.entries(alternative))
    .map(([column, value]) => `${escape(column, true)}=${escape(value, false)}`)
    .join('|');
}

/** A list parameter whose names may hold commas: `\,` and `\\` escaped. */
const listText = (names: string[]) =>
  names.map((name) => name.replace(/[\\,]/g, (c) => `\\${c}`)).join(',');

/** The query string of the rows a call chooses: its keys, filters and `or`, in a fixed order. */
function selection(args: ToolArguments): URLSearchParams {
  const query = new URLSearchParams();
  // Keys and filters together are the row API's to refuse, with its own words.
  if (Array.isArray(args.keys)) query.append('_key', (args.keys as string[]).join(','));
  const filters = (args.filters ?? {}) as Record<string, string>;
  for (const column of Object.keys(filters).sort()) query.append(column, filters[column] as string);
  const or = args.or as Record<string, string>[] | undefined;
  if (or !== undefined && or.length > 0) query.append('_or', orText(or));
  return query;
}

function paging(query: URLSearchParams, args: ToolArguments): void {
  if (typeof args.sort === 'string') query.append('_sort', args.sort);
  if (typeof args.offset === 'number') query.append('_offset', String(args.offset));
  // A limit always: the row API then counts every match in X-Total-Count, and an agent that
  // asked for no limit gets a page it can read, with the total to page on.
  query.append('_limit', String(typeof args.limit === 'number' ? args.limit : defaultLimit));
}

/** Rows a `query_rows` answers when the agent names no limit. */
export const defaultLimit = 100;

const urlOf = (sheet: Sheet, query: URLSearchParams) => {
  const text = query.toString();
  return `/api/v1/${sheet.id}${text === '' ? '' : `?${text}`}`;
};

/**
 * Runs MCP tools for one caller: each becomes the row API request it stands for, sent through
 * the app's own routes with the caller's credential, so that it is checked, limited, applied
 * once under its `idempotency_key` and refused exactly as that request would be.
 */
export class ToolCalls {
  readonly #kinds: ColumnKinds;

  constructor(
    private readonly app: FastifyInstance,
    private readonly sheets: Sheets,
  ) {
    this.#kinds = new ColumnKinds(sheets);
  }

  /** The sheets a caller may use: its key's sheet, or every sheet for the administrator. */
  async visible(caller: Identity): Promise<Sheet[]> {
    if (caller.kind === 'admin') return this.sheets.list();
    const sheet = await this.sheets.find(caller.sheetId);
    return sheet === null ? [] : [sheet];
  }

  async call(
    caller: Identity,
    agent: Agent,
    name: ToolName,
    args: ToolArguments,
  ): Promise<ToolOutcome> {
    if (name === 'list_sheets') {
      const sheets = await this.visible(caller);
      return {
        ok: true,
        result: {
          sheets: sheets.map((sheet) => ({ id: sheet.id, name: sheet.name, rows: sheet.rowCount })),
        },
      };
    }
    const sheet = await this.#sheetNamed(caller, args.sheet as string);
    if (typeof sheet === 'string') return failed(sheet);
    const run = async (call: ApiCall, shape: (answer: ApiAnswer) => Record<string, unknown>) => {
      const answer = await callApi(this.app, agent, call);
      return answer.status >= 400
        ? failed(problemText(answer), answer.body)
        : ({ ok: true, result: shape(answer) } as const);
    };
    const idempotencyKey = args.idempotency_key as string | undefined;
    const asIs = (answer: ApiAnswer) => answer.body as Record<string, unknown>;
    switch (name) {
      case 'describe_sheet': {
        const probe = await callApi(this.app, agent, {
          method: 'GET',
          url: `/api/v1/${sheet.id}?_limit=0`,
        });
        if (probe.status >= 400) return failed(problemText(probe), probe.body);
        const kinds = await this.#kinds.of(sheet);
        return {
          ok: true,
          result: {
            id: sheet.id,
            name: sheet.name,
            columns: sheet.columns.map((column, i) => ({ name: column, types: kinds[i] ?? [] })),
            rows: Number(probe.headers['x-total-count'] ?? sheet.rowCount),
            deleteEnabled: sheet.settings.deleteEnabled,
            filterSyntax: filterGuide,
          },
        };
      }
      case 'query_rows': {
        const query = selection(args);
        paging(query, args);
        if (Array.isArray(args.fields)) query.append('_fields', listText(args.fields as string[]));
        // A sheet with a column of that name has it in every row already, and no keys to give.
        if (!sheet.columns.includes('_key')) query.append('_with_key', 'true');
        return run({ method: 'GET', url: urlOf(sheet, query) }, (answer) => ({
          rows: answer.body,
          total: Number(answer.headers['x-total-count']),
        }));
      }
      case 'aggregate_rows': {
        const query = selection(args);
        if (Array.isArray(args.group)) query.append('_group', listText(args.group as string[]));
        if (Array.isArray(args.aggregates))
          query.append('_agg', (args.aggregates as string[]).join(','));
        paging(query, args);
        return run({ method: 'GET', url: urlOf(sheet, query) }, (answer) => ({
          groups: answer.body,
        }));
      }
      case 'add_rows':
        return run(
          {
            method: 'POST',
            url: urlOf(sheet, new URLSearchParams()),
            body: args.rows,
            idempotencyKey,
          },
          asIs,
        );
      case 'upsert_rows':
        return run(
          {
            method: 'POST',
            url: urlOf(sheet, new URLSearchParams({ _upsert: args.key_column as string })),
            body: args.rows,
            idempotencyKey,
          },
          asIs,
        );
      case 'update_rows':
        return run(
          {
            method: 'PATCH',
            url: urlOf(sheet, selection(args)),
            body: args.values,
            idempotencyKey,
          },
          asIs,
        );
      case 'delete_rows':
        return run({ method: 'DELETE', url: urlOf(sheet, selection(args)), idempotencyKey }, asIs);
    }
  }

  /** The sheet an argument names: an id, or a name no other visible sheet has. */
  async #sheetNamed(caller: Identity, named: string): Promise<Sheet | string> {
    const sheets = await this.visible(caller);
    const byId = sheets.find((sheet) => sheet.id === named);
    if (byId !== undefined) return byId;
    const byName = sheets.filter((sheet) => sheet.name === named);
    if (byName.length === 1) return byName[0] as Sheet;
    if (byName.length > 1) {
      return `sheet-ambiguous: ${byName.length} sheets are named "${named}"; pass one of their ids: ${byName.map((sheet) => sheet.id).join(', ')}.`;
    }
    return `sheet-not-found: no sheet you may use has the id or name "${named}"; list_sheets lists them.`;
  }
}
