import type { Cell } from '../../cells/cell.ts';
import type { SqlParams } from '../row-sets.ts';
import type { Flavor } from './sql.ts';

/** A column as an aggregate names it: by its name (the stored JSON's key) and its index. */
export interface SpecColumn {
  name: string;
  col: number;
}

/**
 * The rows of the sheet a statement reads: those `condition` keeps (appended to a WHERE on
 * `rows`, written after `FROM rows` as `byRid`), or, where not null, the `rid`s `included`
 * selects, each once.
 */
export interface ChosenRows {
  condition: string;
  byRid: string;
  included: string | null;
}

/**
 * Where an aggregate statement reads the cells of the rows it chose: expressions for a column's
 * cell, number and text, valid in the SELECT over `from`, which answers each row with its `pos`.
 */
export interface CellSource {
  cell(column: SpecColumn): string;
  number(column: SpecColumn): string;
  text(column: SpecColumn): string;
  /** The FROM clause of the chosen rows. */
  from(rows: ChosenRows): string;
  /** A cell as `cell` answered it. */
  decode(value: unknown): Cell;
}

/** The cells from each row's stored JSON, parsed once per row. */
export function documentSource(flavor: Flavor, key: number, p: SqlParams): CellSource {
  const reading = flavor.cellReading;
  const at = (column: SpecColumn) => p.add(reading.key(column.name));
  return {
    cell: (column) => reading.cell('doc', at(column)),
    number: (column) => reading.number('doc', at(column)),
    text: (column) => reading.text('doc', at(column)),
    from: ({ condition, byRid }) =>
      `FROM (SELECT pos, ${reading.document} AS doc FROM rows${byRid} WHERE sheet = ${p.add(key)}${condition}${reading.fence}) AS parsed`,
    decode: (value) =>
      value === null || value === undefined ? null : (JSON.parse(value as string) as Cell),
  };
}

/**
 * The cells from the cell index, found by row id: one join per column read, each one short
 * search of the index by row. Every column read must be in the sheet's index.
 */
export function entrySource(
  flavor: Flavor,
  key: number,
  p: SqlParams,
  inIdOrder: boolean,
): CellSource {
  const reading = flavor.entryReading;
  if (reading === null) throw new Error('This store cannot read the cell index by row.');
  const aliases = new Map<number, string>();
  const joins: string[] = [];
  const entry = (column: SpecColumn) => {
    let alias = aliases.get(column.col);
    if (alias === undefined) {
      alias = `e${aliases.size}`;
      aliases.set(column.col, alias);
      joins.push(
        `LEFT JOIN cells AS ${alias}${reading.byRow} ON ${alias}.sheet = ${p.add(key)} AND ${alias}.rid = chosen.rid AND ${alias}.col = ${p.add(column.col)}`,
      );
    }
    return alias;
  };
  return {
    cell: (column) => reading.cell(entry(column)),
    number: (column) => reading.number(entry(column)),
    text: (column) => reading.text(entry(column)),
    // From the ids the cell index found: in a sheet whose rows are in the order of their ids,
    // an id orders rows as a position does, and no row need be read; otherwise each row's
    // position by its id. Both spare searching every row of the sheet for its id in a list.
    from: ({ condition, byRid, included }) => {
      const cells = joins.join(' ');
      if (included === null) {
        return `FROM (SELECT pos, rid FROM rows${byRid} WHERE sheet = ${p.add(key)}${condition}) AS chosen ${cells}`;
      }
      if (inIdOrder) return `FROM (SELECT rid AS pos, rid FROM (${included})) AS chosen ${cells}`;
      return `FROM (${included}) AS found CROSS JOIN rows AS chosen${byRid} ${cells} WHERE chosen.sheet = ${p.add(key)} AND chosen.rid = found.rid`;
    },
    decode: (value) => reading.decode(value ?? null),
  };
}
