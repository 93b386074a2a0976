import type { Cell, DecimalMark } from '../cells/cell.ts';

/** A spreadsheet file opened for import: its column names, and its rows still to be read. */
export interface SheetFile {
  columns: string[];
  rows: AsyncIterable<Cell[][]>;
  /** The worksheet read, for workbooks with several. */
  tab?: string;
  /** How a text file was read, given or detected. */
  text?: { delimiter: string; encoding: string; decimal: DecimalMark };
  /** The columns whose cells are kept as text: declared, or found to hold codes. */
  textColumns?: string[];
  /**
   * Columns found to hold codes only once every row was read (a workbook's): made text by the
   * import before the sheet is shown.
   */
  codeColumns?: () => string[];
}
