import { createHash } from 'node:crypto';
import type { Cell } from '../cells/cell.ts';
import type { SheetSource } from '../model/sheet.ts';
import type { ProviderTable, TabCheck } from './provider.ts';
import { sameHeader, sameRows } from './provider-table.ts';

/**
 * The spreadsheet's version (Drive's `version`, Graph's `cTag`) at which each tab was last read, with a digest of what the read
 * found: while the version has not moved and the copy still digests the same, the copy is the
 * tab, and the check before a push needs no read of the values. Kept in memory per server: a
 * lost record costs one read. The version is asked before the read, so a change that comes
 * between them moves the version past the one recorded, and the next check reads.
 */
export class TabVersions<Source extends SheetSource> {
  readonly #known = new Map<string, { version: string; digest: string }>();

  /** `keyOf`: what names the tab across renames, e.g. its spreadsheet's id and the tab's id. */
  constructor(private readonly keyOf: (source: Source) => string) {}

  /** Records a read of the tab made at `version` (null: not known, nothing recorded). */
  read(source: Source, version: string | null, table: Contents): void {
    if (version === null) this.#known.delete(this.keyOf(source));
    else this.#known.set(this.keyOf(source), { version, digest: digestOf(table) });
  }

  /** Whether the tab is still `copy`, known without reading it: its version has not moved. */
  unchanged(source: Source, version: string | null, copy: Contents): boolean {
    const known = this.#known.get(this.keyOf(source));
    return version !== null && known?.version === version && known.digest === digestOf(copy);
  }

  /**
   * The check before a push (`SheetProvider.changedSince`): unchanged when the version says so,
   * else the tab as `read` finds it, compared with the copy and recorded at `version`.
   */
  async check(
    source: Source,
    version: string | null,
    copy: Contents,
    read: () => Promise<ProviderTable>,
  ): Promise<TabCheck> {
    if (this.unchanged(source, version, copy)) return { changed: false };
    const table = await read();
    this.read(source, version, table);
    const same =
      sameHeader(table.columns, copy.columns) &&
      sameRows(table.rows, copy.rows) &&
      JSON.stringify(table.source) === JSON.stringify(copy.source);
    return same ? { changed: false, pushTags: table.pushTags } : { changed: true, table };
  }

  /** Forgets the tab's record: a push moves the version, and the next check reads. */
  forget(source: Source): void {
    this.#known.delete(this.keyOf(source));
  }
}

/** What a read found, as the checks compare it: header, rows and source (its tab title). */
interface Contents {
  columns: string[];
  rows: Cell[][];
  source: SheetSource;
}

function digestOf({ columns, rows, source }: Contents): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(columns)).update('\n').update(JSON.stringify(source)).update('\n');
  hash.update(JSON.stringify(rows));
  return hash.digest('base64url');
}
