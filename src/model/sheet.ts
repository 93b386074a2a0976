/**
 * Where a sheet's rows come from: its `source`, in the stored JSON and the API alike. The word
 * means that alone in the code; file formats read and written are `files/`, not sources.
 * Providers that mirror a live spreadsheet add their own kind.
 */
export type SheetSource = ScratchSource | UploadSource | MirroredSource;

/** Rows typed in or written through the API alone. */
export interface ScratchSource {
  provider: 'scratch';
}

/** A file imported once; a text file says how it was read, as given or as detected. */
export interface UploadSource {
  provider: 'upload';
  fileName: string;
  format: 'csv' | 'xlsx';
  tab?: string;
  /** The field delimiter of a CSV file: `,`, `;`, a tab, `|` or the one given. */
  delimiter?: string;
  /** The text encoding of a CSV file, by its canonical name, such as `utf-8` or `windows-1252`. */
  encoding?: string;
  /** The decimal mark a CSV file's numbers were read with, given or decided from the file. */
  decimal?: '.' | ',';
}

/**
 * A tab of a live spreadsheet that the sheet mirrors. `provider` names the service (see the
 * provider registry); the other fields are that provider's own, which only it reads.
 */
export interface MirroredSource {
  provider: string;
  readonly [field: string]: unknown;
}

/**
 * When the tab a mirrored sheet follows (by its id) was found gone from its spreadsheet, as the
 * source keeps it (`goneAt`, ISO time); null while it is there. Reads then serve the last copy,
 * and writes are refused with `tab-gone`; the next read that finds the tab again clears it.
 */
export function tabGoneAt(source: SheetSource): string | null {
  const goneAt = (source as { goneAt?: unknown }).goneAt;
  return typeof goneAt === 'string' ? goneAt : null;
}

/** The sources that live only in the store, with no provider behind them. */
export const storedOnly = ['scratch', 'upload'] as const;

/** Whether a sheet's rows are a copy of a live spreadsheet's, kept by a provider. */
export function isMirrored(source: SheetSource): source is MirroredSource {
  return !(storedOnly as readonly string[]).includes(source.provider);
}

/** Who may use a sheet's row API: anyone, anyone to read, or only holders of its keys. */
export const accessModes = ['open', 'public-read', 'private'] as const;
export type AccessMode = (typeof accessModes)[number];

export interface SheetSettings {
  deleteEnabled: boolean;
  /** Absent on sheets made before access control, which were open. */
  access?: AccessMode;
  /** Origins whose pages may call the row API from a browser; `*` for any. */
  allowedOrigins?: string[];
  /** For sheets mirrored from a provider: how old the copy served may be before it is re-read. */
  freshnessSeconds?: number;
  /**
   * For sheets mirrored from a provider: whether changes made in the spreadsheet are looked for
   * on a schedule. Unset: while the sheet has a webhook on or an event stream opened with a key.
   */
  watch?: boolean;
  /** How often a watched sheet is checked; the server's interval when unset. */
  watchIntervalSeconds?: number;
  /**
   * Columns whose every cell is text, such as codes (`007`, `1001`): a number written to one is
   * kept as the text it shows. Absent: none.
   */
  textColumns?: string[];
}

/** A sheet as the management API describes it. */
export interface Sheet {
  id: string;
  name: string;
  columns: string[];
  rowCount: number;
  source: SheetSource;
  settings: SheetSettings;
  createdAt: string;
  updatedAt: string;
  /** Grows with every write that changes rows; lets readers tell whether what they hold is current. */
  version: number;
  /**
   * For sheets mirrored from a provider: set while a push is out, and left set when its outcome
   * could not be learned, until a fresh read makes the copy match the spreadsheet again.
   */
  pushing?: string | null;
}

/** Whether two headers name the same columns in the same places. */
export function sameColumns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((column, i) => column === b[i]);
}
