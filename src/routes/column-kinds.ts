import { DateCell, type Cell } from '../cells/cell.ts';
import { parseRowQuery } from '../query/parse-row-query.ts';
import { planRead } from '../query/plan.ts';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';

/** The kinds of value a cell holds, as the row API shows them; an empty cell is none. */
export const cellKinds = ['number', 'text', 'boolean', 'date', 'time', 'date-time'] as const;
export type CellKind = (typeof cellKinds)[number];

export function kindOf(cell: Cell): CellKind | null {
  if (cell === null) return null;
  if (cell instanceof DateCell) {
    if (cell.iso.includes('T')) return 'date-time';
    return cell.iso.includes(':') ? 'time' : 'date';
  }
  if (typeof cell === 'number') return 'number';
  if (typeof cell === 'boolean') return 'boolean';
  return 'text';
}

/** Sheets whose column kinds are kept; the least recently read is dropped past it. */
const kept = 200;

/**
 * The kinds each column of a sheet holds now, read from its cells once per version of the
 * sheet: any write makes a new version, so the kinds follow edits, and reads between writes
 * cost nothing.
 */
export class ColumnKinds {
  readonly #bySheet = new Map<string, { version: number; kinds: Promise<CellKind[][]> }>();

  constructor(private readonly sheets: Sheets) {}

  of(sheet: Sheet): Promise<CellKind[][]> {
    const known = this.#bySheet.get(sheet.id);
    this.#bySheet.delete(sheet.id);
    if (known !== undefined && known.version === sheet.version) {
      this.#bySheet.set(sheet.id, known);
      return known.kinds;
    }
    const entry = { version: sheet.version, kinds: this.#read(sheet) };
    // A failed read is not kept: the next request reads again.
    entry.kinds.catch(() => {
      if (this.#bySheet.get(sheet.id) === entry) this.#bySheet.delete(sheet.id);
    });
    this.#bySheet.set(sheet.id, entry);
    if (this.#bySheet.size > kept) {
      const oldest = this.#bySheet.keys().next().value;
      if (oldest !== undefined) this.#bySheet.delete(oldest);
    }
    return entry.kinds;
  }

  async #read(sheet: Sheet): Promise<CellKind[][]> {
    const seen = sheet.columns.map(() => new Set<CellKind>());
    const answer = await this.sheets.readCells(sheet, planRead(sheet, parseRowQuery({})));
    for await (const chunk of answer.chunks) {
      for (const row of chunk.rows) {
        row.forEach((cell, i) => {
          const kind = kindOf(cell);
          if (kind !== null) seen[i]?.add(kind);
        });
      }
    }
    return seen.map((kinds) => cellKinds.filter((kind) => kinds.has(kind)));
  }
}
