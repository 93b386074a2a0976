import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ProviderTable } from '../provider.ts';
import { tableFromGrid } from '../provider-table.ts';
import { cellFromExcel } from './excel-cells.ts';
import { anchorComment, referenceOf } from './append-anchors.ts';
import type { Operation } from './excel-operations.ts';
import { GraphFailure, type CallOptions, type GraphClient } from './graph-client.ts';
import { failureOf, ok, sendBatch, type GraphRequest } from './graph-batch.ts';
import {
  segment,
  shareIdOf,
  workbookPath,
  worksheetPath,
  type WorkbookRef,
} from './workbook-ref.ts';
import type { ExcelSource } from './excel-source.ts';

/** The media type of an Office Open XML workbook, the only kind Excel's API opens. */
export const workbookType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface DriveItem {
  id?: string;
  name?: string;
  cTag?: string;
  parentReference?: { driveId?: string };
  file?: { mimeType?: string };
}

export interface RangeAnswer {
  address?: string;
  rowIndex?: number;
  columnIndex?: number;
  values?: unknown[][];
  numberFormat?: unknown[][];
}

/** The Graph requests on one workbook: what it is, its worksheets, its cells, its sessions. */
export class ExcelWorkbook {
  constructor(private readonly client: GraphClient) {}

  /** The drive and item ids a reference names, refusing files Excel's API cannot open. */
  async resolve(
    ref: WorkbookRef,
    options?: CallOptions,
  ): Promise<{ drive: string; item: string; name: string }> {
    const path =
      'link' in ref
        ? `shares/${shareIdOf(ref.link)}/driveItem`
        : `drives/${segment(ref.drive)}/items/${segment(ref.item)}`;
    const found = (await this.client.call('GET', path, options)) as DriveItem;
    const drive = found.parentReference?.driveId ?? ('drive' in ref ? ref.drive : undefined);
    const name = found.name ?? found.id ?? '';
    if (found.file?.mimeType !== workbookType || drive === undefined || found.id === undefined) {
      throw new Problem(
        'not-a-spreadsheet',
        `"${name}" is not an Excel workbook (.xlsx): Excel's API opens Office Open XML workbooks only${found.file?.mimeType === undefined ? ' (it is a folder or has no file type)' : ` (its type is ${found.file.mimeType})`}.`,
      );
    }
    return { drive, item: found.id, name };
  }

  /** The workbook's worksheets, in their order. */
  async worksheets(
    workbook: { drive: string; item: string },
    options?: CallOptions,
  ): Promise<{ id: string; name: string }[]> {
    const answer = (await this.client.call(
      'GET',
      `${workbookPath(workbook)}worksheets`,
      options,
    )) as {
      value?: { id?: string; name?: string; position?: number }[];
    };
    return (answer.value ?? [])
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      .map((sheet) => ({ id: sheet.id ?? '', name: sheet.name ?? '' }));
  }

  /**
   * The worksheet's cells from A1 to the last that holds a value, as a table; its source with
   * the worksheet's current name (it may have been renamed: the id still finds it).
   */
  async readTab(source: ExcelSource, options?: CallOptions): Promise<ProviderTable> {
    return tableOfRange(await this.usedRange(source, options), source);
  }

  /** The worksheet's used range: from its first to its last cell holding a value. */
  async usedRange(source: ExcelSource, options?: CallOptions): Promise<RangeAnswer> {
    const path = `${worksheetPath(source)}usedRange(valuesOnly=true)`;
    return (await this.client.call('GET', path, options)) as RangeAnswer;
  }

  /** The item's `cTag`, which moves whenever the file's content changes. */
  async contentTag(
    source: { drive: string; item: string },
    options?: CallOptions,
  ): Promise<string | null> {
    const path = `drives/${segment(source.drive)}/items/${segment(source.item)}?$select=id,cTag,eTag,lastModifiedDateTime`;
    const found = (await this.client.call('GET', path, options)) as DriveItem;
    return typeof found.cTag === 'string' ? found.cTag : null;
  }

  async createSession(source: ExcelSource, options?: CallOptions): Promise<string> {
    const answer = (await this.client.call('POST', `${workbookPath(source)}createSession`, {
      ...options,
      body: { persistChanges: true },
    })) as { id?: string };
    if (typeof answer.id !== 'string') throw new Error('createSession answered no session id');
    return answer.id;
  }

  async closeSession(source: ExcelSource, session: string, options?: CallOptions): Promise<void> {
    await this.client.call('POST', `${workbookPath(source)}closeSession`, { ...options, session });
  }

  /** Sends one operation of a push that takes one request, in its session. */
  async apply(source: ExcelSource, operation: Operation, options: CallOptions): Promise<void> {
    const [request] = requestsOf(source, operation);
    if (request === undefined || requestsOf(source, operation).length !== 1) {
      throw new Error('an operation of several requests goes as a batch');
    }
    await this.client.call(request.method, request.path, { ...options, body: request.body });
  }

  /**
   * Sends operations as one JSON batch (at most 20 requests: an append takes two), in the
   * session of `options`, each request depending on the one before: Graph runs them in order
   * and, once one fails, answers the rest 424 without running them. Answers how many operations
   * landed whole, and the first failure as Graph answered it.
   */
  async applyBatch(
    source: ExcelSource,
    operations: Operation[],
    options: CallOptions & { session: string },
  ): Promise<{ landed: number; failure?: GraphFailure; namesLeft: boolean }> {
    const owned = operations.flatMap((operation, index) =>
      requestsOf(source, operation).map((request) => ({ index, request })),
    );
    // Each request depends on the last one before it that is not a cleanup: a name's delete
    // that fails (or finds the name gone) stops nothing after it.
    let last: number | undefined;
    const byId = await sendBatch(
      this.client,
      owned.map(({ request }, i) => {
        const after = last;
        if (request.cleanup !== true) last = i;
        return { ...request, after };
      }),
      options,
    );
    let namesLeft = false;
    for (let i = 0; i < owned.length; i++) {
      const own = owned[i];
      const response = byId.get(String(i + 1));
      if (own?.request.cleanup === true) {
        namesLeft ||= response === undefined || !(ok(response) || response.status === 404);
        continue;
      }
      if (response !== undefined && ok(response)) continue;
      return { landed: own?.index ?? 0, failure: failureOf(response), namesLeft: true };
    }
    return { landed: operations.length, namesLeft };
  }

  /**
   * Deletes the workbook's names `drop` (each on its own: one already gone is fine) and adds the
   * names of `add` over cells of the worksheet (the second after the first), in the session of
   * `options`, as one request or one batch. Throws the failure of an add; answers whether every
   * drop went.
   */
  async anchor(
    source: ExcelSource,
    add: { name: string; address: string }[],
    drop: string[],
    options: CallOptions & { session: string },
  ): Promise<{ dropped: boolean }> {
    const names = `${workbookPath(source)}names`;
    const requests: (GraphRequest & { after: number | undefined })[] = [
      ...drop.map((name) => ({
        method: 'DELETE',
        path: `${names}/${segment(name)}`,
        body: undefined,
        after: undefined,
      })),
      ...addRequests(source, add, drop.length),
    ];
    const [only] = requests;
    if (requests.length === 0 || only === undefined) return { dropped: true };
    if (requests.length === 1) {
      try {
        await this.client.call(only.method, only.path, { ...options, body: only.body });
        return { dropped: true };
      } catch (error) {
        if (add.length === 0 && error instanceof GraphFailure && error.status === 404) {
          return { dropped: true };
        }
        throw error;
      }
    }
    const byId = await sendBatch(this.client, requests, options);
    let dropped = true;
    for (let i = 0; i < requests.length; i++) {
      const response = byId.get(String(i + 1));
      const done = response !== undefined && ok(response);
      if (i < drop.length) dropped &&= done || response?.status === 404;
      else if (!done) throw failureOf(response);
    }
    return { dropped };
  }

  /**
   * A push's first step as one `$batch`: adds the names `add` (the second after the first), then
   * reads the worksheet, after both; with `list`, lists the workbook's names beside them (null
   * when that failed). Throws the failure of an add; a read that failed after the names were
   * added answers its failure instead of the table.
   */
  async anchorAndRead(
    source: ExcelSource,
    add: { name: string; address: string }[],
    list: boolean,
    options: CallOptions & { session: string },
  ): Promise<{
    table: ProviderTable | GraphFailure;
    listed: { name?: unknown; comment?: unknown }[] | null;
  }> {
    const read = {
      method: 'GET',
      path: `${worksheetPath(source)}usedRange(valuesOnly=true)`,
      body: undefined,
      after: add.length === 0 ? undefined : add.length - 1,
    };
    const names = { method: 'GET', path: `${workbookPath(source)}names`, body: undefined };
    const requests = [
      ...addRequests(source, add, 0),
      read,
      ...(list ? [{ ...names, after: undefined }] : []),
    ];
    const byId = await sendBatch(this.client, requests, options);
    for (let i = 0; i < add.length; i++) {
      const response = byId.get(String(i + 1));
      if (response === undefined || !ok(response)) throw failureOf(response);
    }
    const answered = byId.get(String(add.length + 1));
    const table =
      answered !== undefined && ok(answered)
        ? tableOfRange(answered.body as RangeAnswer, source)
        : failureOf(answered);
    const listing = list ? byId.get(String(add.length + 2)) : undefined;
    const value =
      listing !== undefined && ok(listing)
        ? (listing.body as { value?: unknown } | null | undefined)?.value
        : undefined;
    return { table, listed: Array.isArray(value) ? (value as { name?: unknown }[]) : null };
  }
}

/** The requests that apply one operation, in order. */
function requestsOf(source: ExcelSource, operation: Operation): GraphRequest[] {
  const at = (address: string) => `${worksheetPath(source)}range(address='${address}')`;
  if (operation.kind === 'delete') {
    return [{ method: 'POST', path: `${at(operation.address)}/delete`, body: { shift: 'Up' } }];
  }
  // Graph sets the number format before the values: text lands as text.
  const body = { numberFormat: operation.numberFormat, values: operation.values };
  const write = { method: 'PATCH', path: at(operation.address), body };
  const { anchor } = operation;
  if (anchor?.end !== undefined && anchor.span !== undefined) {
    const named = (name: string) => `${workbookPath(source)}names/${segment(name)}`;
    // The span grew around the inserted rows: one row above them and one below, left as they are.
    const unchanged = operation.values[0]?.map(() => null) ?? [];
    return [
      { method: 'POST', path: `${named(anchor.end)}/range/insert`, body: { shift: 'Down' } },
      {
        method: 'PATCH',
        path: `${named(anchor.span)}/range`,
        body: {
          numberFormat: [unchanged, ...operation.numberFormat, unchanged],
          values: [unchanged, ...operation.values, unchanged],
        },
      },
      ...[anchor.end, anchor.span, ...(anchor.drop ?? [])].map((name) => ({
        method: 'DELETE',
        path: named(name),
        body: undefined,
        cleanup: true as const,
      })),
    ];
  }
  if (operation.insert === undefined) return [write];
  return [
    { method: 'POST', path: `${at(operation.insert)}/insert`, body: { shift: 'Down' } },
    write,
  ];
}

/** Adds of names over cells of the worksheet, each after the one before (the first after `first - 1`). */
function addRequests(
  source: ExcelSource,
  add: { name: string; address: string }[],
  first: number,
): (GraphRequest & { after: number | undefined })[] {
  return add.map(({ name, address }, i) => ({
    method: 'POST',
    path: `${workbookPath(source)}names/add`,
    body: { name, reference: referenceOf(source.tab, address), comment: anchorComment },
    after: i === 0 ? undefined : first + i - 1,
  }));
}

/** A used range as a table; its source with the worksheet's current name. */
export function tableOfRange(range: RangeAnswer, source: ExcelSource): ProviderTable {
  return {
    ...tableFromGrid(gridFromA1(range)),
    source: { ...source, tab: sheetNameOf(range.address) ?? source.tab },
    pushTags: new Map(),
  };
}

/**
 * The used range placed on a grid that starts at A1: rows above it and columns left of it are
 * empty, so that the header is row 1 and row r of the grid is worksheet row r + 1.
 */
export function gridFromA1(range: RangeAnswer): Cell[][] {
  const values = range.values ?? [];
  const formats = range.numberFormat ?? [];
  const top = range.rowIndex ?? 0;
  const left = range.columnIndex ?? 0;
  const rows: Cell[][] = values.map((row, r) => [
    ...Array<Cell>(left).fill(null),
    ...row.map((value, c) => cellFromExcel(value, formats[r]?.[c])),
  ]);
  return [...Array.from({ length: top }, () => []), ...rows];
}

/** `Sheet1!A1:C4` or `'My sheet'!A1` → the worksheet's name. */
export function sheetNameOf(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const bang = address.lastIndexOf('!');
  if (bang <= 0) return undefined;
  const name = address.slice(0, bang);
  return name.startsWith("'") && name.endsWith("'")
    ? name.slice(1, -1).replaceAll("''", "'")
    : name;
}
