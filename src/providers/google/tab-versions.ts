import { createHash } from 'node:crypto';
import type { Cell } from '../../cells/cell.ts';
import type { GoogleSource, SheetSource } from '../../model/sheet.ts';

/**
 * The spreadsheet's Drive version at which each tab was last read, with a digest of what the read
 * found: while the version has not moved and the copy still digests the same, the copy is the
 * tab, and the check before a push needs no read of the values. Kept in memory per server: a
 * lost record costs one read. The version is asked before the read, so a change that comes
 * between them moves the version past the one recorded, and the next check reads.
 */
export class TabVersions {
  readonly #known = new Map<string, { version: string; digest: string }>();

  /** Records a read of the tab made at `version` (null: not known, nothing recorded). */
  read(source: GoogleSource, version: string | null, table: Contents): void {
    if (version === null) this.#known.delete(keyOf(source));
    else this.#known.set(keyOf(source), { version, digest: digestOf(table) });
  }

  /** Whether the tab is still `copy`, known without reading it: its version has not moved. */
  unchanged(source: GoogleSource, version: string | null, copy: Contents): boolean {
    const known = this.#known.get(keyOf(source));
    return version !== null && known?.version === version && known.digest === digestOf(copy);
  }

  /** Forgets the tab's record: a push moves the version, and the next check reads. */
  forget(source: GoogleSource): void {
    this.#known.delete(keyOf(source));
  }
}

/** What a read found, as the checks compare it: header, rows and source (its tab title). */
interface Contents {
  columns: string[];
  rows: Cell[][];
  source: SheetSource;
}

/** A tab keeps its id across renames; its title is in the digest. */
const keyOf = (source: GoogleSource) => `${source.spreadsheetId}:${source.tabId}`;

function digestOf({ columns, rows, source }: Contents): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(columns)).update('\n').update(JSON.stringify(source)).update('\n');
  hash.update(JSON.stringify(rows));
  return hash.digest('base64url');
}
