/**
 * The API's methods by path: for each, its HTTP method, whether it reads or writes (for quota,
 * faults and stats), the scopes it needs, and how it runs on a spreadsheet.
 */
import type { ScopeNeed } from './auth.ts';
import { applyBatchUpdate } from './batch-update.ts';
import { driveFile, fileNotFound } from './drive.ts';
import type { ApiError } from './errors.ts';
import type { JsonObject } from './json.ts';
import { getDeveloperMetadata, searchDeveloperMetadata } from './metadata-requests.ts';
import { spreadsheetResource } from './spreadsheet-resource.ts';
import { boxOf, resolveRange, type Book } from './state.ts';
import { appendValues } from './append.ts';
import {
  batchUpdateValues,
  clearValues,
  getValues,
  inputOption,
  renderOptions,
  updateValues,
  valueRange,
  withUpdatedData,
} from './values.ts';

export interface Call {
  book: Book;
  query: URLSearchParams;
  body: JsonObject;
  /** The path parameter after the spreadsheet id: a values range or a metadata id. */
  param: string;
}

export interface Operation {
  method: string;
  /** How quota, faults and stats count it. */
  kind: 'read' | 'write';
  /** Scopes it needs, when not those of its kind: the metadata reads need a writing scope. */
  scope?: Exclude<ScopeNeed, 'read'>;
  /** The API it belongs to, when not Sheets: Drive may be switched off in the project. */
  service?: 'drive';
  /** Its answer for a file the caller may not see or that does not exist, when not Sheets'. */
  notFound?: (id: string) => ApiError;
  run: (call: Call) => { body: unknown; requestCount?: number };
}

/** Drive's `files.get`, for a spreadsheet's metadata and `version`. */
const driveFilesGet: Operation = {
  method: 'GET',
  kind: 'read',
  scope: 'drive-metadata',
  service: 'drive',
  notFound: fileNotFound,
  run: ({ book, query }) => ({ body: driveFile(book, query.get('fields')) }),
};

const read = (call: Call) => (name: string) => call.query.get(name);

/**
 * Operations by path suffix after `/v4/spreadsheets/{id}`; `{range}` stands for a values range,
 * `{metadataId}` for a developer metadata id.
 */
const operations: Record<string, Operation> = {
  '': {
    method: 'GET',
    kind: 'read',
    run: ({ book, query }) => ({
      body: spreadsheetResource(book, {
        ranges: query.getAll('ranges'),
        includeGridData: query.get('includeGridData') === 'true',
      }),
    }),
  },
  ':batchUpdate': {
    method: 'POST',
    kind: 'write',
    run: ({ book, body }) => {
      const { response, requestCount } = applyBatchUpdate(book, body);
      return { body: response, requestCount };
    },
  },
  '/values:batchGet': {
    method: 'GET',
    kind: 'read',
    run: (call) => {
      const options = renderOptions(read(call));
      const valueRanges = call.query.getAll('ranges').map((range) => {
        const resolved = resolveRange(call.book, range);
        return valueRange(resolved.tab, boxOf(resolved), options);
      });
      return { body: { spreadsheetId: call.book.id, valueRanges } };
    },
  },
  '/values:batchUpdate': {
    method: 'POST',
    kind: 'write',
    run: ({ book, body }) => ({ body: batchUpdateValues(book, body) }),
  },
  '/values/{range}': {
    method: 'GET',
    kind: 'read',
    run: (call) => ({ body: getValues(call.book, call.param, read(call)) }),
  },
  'PUT /values/{range}': {
    method: 'PUT',
    kind: 'write',
    run: (call) => {
      const input = inputOption(call.query.get('valueInputOption'));
      const written = updateValues(call.book, call.param, call.body, input, 'valueRange');
      return { body: withUpdatedData(written, read(call)) };
    },
  },
  '/values/{range}:append': {
    method: 'POST',
    kind: 'write',
    run: (call) => ({ body: appendValues(call.book, call.param, call.body, read(call)) }),
  },
  '/values/{range}:clear': {
    method: 'POST',
    kind: 'write',
    run: (call) => ({ body: clearValues(call.book, call.param) }),
  },
  '/developerMetadata/{metadataId}': {
    method: 'GET',
    kind: 'read',
    scope: 'write',
    run: (call) => ({ body: getDeveloperMetadata(call.book, call.param) }),
  },
  '/developerMetadata:search': {
    method: 'POST',
    kind: 'read',
    scope: 'write',
    run: (call) => ({ body: searchDeveloperMetadata(call.book, call.body) }),
  },
};

export interface Route {
  id: string;
  param: string;
  operation: Operation;
}

export function route(method: string, rawPath: string): Route | undefined {
  const file = /^\/drive\/v3\/files\/([^/:]+)$/.exec(rawPath);
  if (file) {
    const id = decodeURIComponent(file[1] ?? '');
    return method === 'GET' ? { id, param: '', operation: driveFilesGet } : undefined;
  }
  const match = /^\/v4\/spreadsheets\/([^/:]+)(.*)$/.exec(rawPath);
  if (!match) return undefined;
  const [, rawId = '', rest = ''] = match;
  const values = /^\/values\/(.+?)(:append|:clear)?$/.exec(rest);
  const metadata = /^\/developerMetadata\/([^/:]+)$/.exec(rest);
  let key = rest;
  let param = '';
  if (values && !rest.startsWith('/values:')) {
    param = decodeURIComponent(values[1] ?? '');
    key = `${method === 'PUT' ? 'PUT ' : ''}/values/{range}${values[2] ?? ''}`;
  } else if (metadata) {
    param = decodeURIComponent(metadata[1] ?? '');
    key = '/developerMetadata/{metadataId}';
  }
  const operation = operations[key];
  if (!operation || operation.method !== method) return undefined;
  return { id: decodeURIComponent(rawId), param, operation };
}
