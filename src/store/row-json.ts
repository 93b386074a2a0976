import { DateCell, type Cell } from '../cells/cell.ts';

/**
 * A row as the store keeps it: the JSON object the API answers, kept current by every write, so
 * that a read assembles ready text instead of building it cell by cell. Dates are JSON strings
 * there; `dates` lists the columns that hold a date (null when none), so the cell types survive.
 */
export interface RowText {
  json: string;
  dates: string | null;
}

/** A stored row at its position, with the id that stays with it while positions shift. */
export interface StoredRow extends RowText {
  pos: number;
  rid: number;
}

/** Encodes and decodes one sheet's rows; column names are escaped once. */
export class RowCodec {
  readonly #keys: string[];

  constructor(readonly columns: string[]) {
    this.#keys = columns.map((column, i) => `${i === 0 ? '{' : ','}${JSON.stringify(column)}:`);
  }

  encode(cells: Cell[]): RowText {
    if (this.#keys.length === 0) return { json: '{}', dates: null };
    let json = '';
    let dates: string | null = null;
    for (let i = 0; i < this.#keys.length; i++) {
      const cell = cells[i] ?? null;
      json += (this.#keys[i] as string) + JSON.stringify(cell);
      if (cell instanceof DateCell) dates = dates === null ? String(i) : `${dates},${i}`;
    }
    return { json: `${json}}`, dates };
  }

  decode(row: RowText): Cell[] {
    const object = JSON.parse(row.json) as Record<string, Cell>;
    const cells = this.columns.map((column) =>
      Object.hasOwn(object, column) ? (object[column] ?? null) : null,
    );
    if (row.dates !== null) {
      for (const index of row.dates.split(',')) {
        const i = Number(index);
        cells[i] = new DateCell(String(cells[i]));
      }
    }
    return cells;
  }
}

/** A stored row's JSON with its position first, as `_with_id=true` answers it. */
export function withPosition(json: string, pos: number): string {
  return json === '{}' ? `{"_id":${pos}}` : `{"_id":${pos},${json.slice(1)}`;
}

/**
 * A stored row's JSON as row events carry it: its position, then its key (the row id as text,
 * which stays with the row while positions shift), then its columns.
 */
export function withPositionAndKey(json: string, pos: number, rid: number): string {
  const head = `{"_id":${pos},"_key":"${rid}"`;
  return json === '{}' ? `${head}}` : `${head},${json.slice(1)}`;
}
