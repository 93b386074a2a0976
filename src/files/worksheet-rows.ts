import { dateCell, isStorableText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { columnLetter } from './header.ts';
import { columnNumber, type MergedRange } from './sheet-extent.ts';
import { formatShowsTime, unescapeText, type WorkbookParts } from './workbook-parts.ts';
import { xmlEvents } from './xml-events.ts';
import type { ZipEntry } from './zip-archive.ts';

/** A row of a worksheet as its XML has it: its number, and its cells by position, gaps empty. */
export interface WorksheetRow {
  number: number;
  cells: Cell[];
}

const dayMs = 86_400_000;
const reference = /^([A-Z]{1,3})([0-9]{1,7})$/;

/** What a `<c>` element holds while it is read. */
interface OpenCell {
  column: number;
  type: string | undefined;
  style: number;
  formula: boolean;
  value: string | undefined;
  /** The runs of inline rich text, whose `_xHHHH_` escapes are undone as shared strings' are. */
  runs: string[] | null;
}

/**
 * The rows of one worksheet, in order, read from its XML as it inflates: only the rows the
 * file has, a batch per inflated chunk, each cell typed as a spreadsheet shows it: numbers,
 * text, booleans, the value a formula last computed, errors as their code, and numbers in a
 * date format as dates. A cell merged into another reads empty.
 */
export async function* worksheetRows(
  path: string,
  sheet: { name: string; entry: ZipEntry },
  parts: WorkbookParts,
  merged: MergedRange[],
): AsyncGenerator<WorksheetRow[]> {
  const mergedAway = mergeLookup(merged);
  let row: WorksheetRow | null = null;
  let last = 0;
  let cell: OpenCell | null = null;
  let into: 'v' | 't' | 'f' | 'run' | null = null;
  let phonetic = 0;
  for await (const batch of xmlEvents(path, sheet.entry)) {
    const rows: WorksheetRow[] = [];
    for (const event of batch) {
      if (event.kind === 'text') {
        if (cell === null || into === null || phonetic > 0) continue;
        if (into === 'f') cell.formula = true;
        else if (into === 'run') cell.runs?.push(event.text);
        else cell.value = (cell.value ?? '') + event.text;
      } else if (event.kind === 'open') {
        const { name, attributes } = event;
        if (name === 'row') {
          const number = Number(attributes.r ?? last + 1);
          if (!Number.isInteger(number) || number <= last) {
            throw new Problem(
              'invalid-upload',
              `The XLSX file could not be read: tab "${sheet.name}" lists row ${attributes.r ?? '?'} after row ${last}.`,
            );
          }
          row = { number, cells: [] };
          last = number;
        } else if (name === 'c' && row !== null) {
          const ref = reference.exec(attributes.r ?? '');
          cell = {
            column: ref === null ? row.cells.length + 1 : columnNumber(ref[1] as string),
            type: attributes.t,
            style: Number(attributes.s ?? 0),
            formula: false,
            value: undefined,
            runs: null,
          };
        } else if (cell !== null) {
          if (name === 'f') {
            // A shared formula's other cells carry only its `t`; its text sits on the first.
            if (attributes.t !== undefined) cell.formula = true;
            into = 'f';
          } else if (name === 'v' || (name === 't' && into !== 'run')) into = 'v';
          else if (name === 'r') {
            cell.runs ??= [];
            into = 'run';
          } else if (name === 'rPh') phonetic++;
        }
      } else if (event.name === 'c' && row !== null && cell !== null) {
        row.cells[cell.column - 1] = mergedAway(row.number, cell.column)
          ? null
          : typed(cell, row.number, sheet.name, parts);
        cell = null;
        into = null;
      } else if (event.name === 'row' && row !== null) {
        rows.push({ number: row.number, cells: Array.from(row.cells, (c) => c ?? null) });
        row = null;
      } else if (event.name === 'rPh') phonetic--;
      else if (event.name === 'r' || event.name === 'v' || event.name === 'f') into = null;
      else if (event.name === 't' && into === 'v') into = null;
    }
    if (rows.length > 0) yield rows;
  }
}

function typed(cell: OpenCell, rowNumber: number, tab: string, parts: WorkbookParts): Cell {
  const value = cellValue(cell, parts);
  if (typeof value === 'string' && !isStorableText(value)) {
    throw new Problem(
      'invalid-upload',
      `Cell ${columnLetter(cell.column - 1)}${rowNumber} of tab "${tab}" holds a NUL character or a lone surrogate, which a sheet cannot hold; is the workbook damaged?`,
    );
  }
  return value === '' ? null : value;
}

function cellValue(cell: OpenCell, parts: WorkbookParts): Cell {
  const { value, type } = cell;
  if (cell.runs !== null && !cell.formula) return unescapeText(cell.runs.join(''));
  if (value === undefined) return null;
  if (type === 'str') return decodeEntities(value);
  if (type === 'b') return parseInt(value, 10) !== 0;
  if (type === 'e') return value;
  if (cell.formula) return number(value, cell.style, parts);
  if (type === 's') {
    const text = parts.sharedStrings[parseInt(value, 10)];
    if (text === undefined) {
      throw new Problem(
        'invalid-upload',
        `The XLSX file could not be read: a cell refers to shared string ${value}, which the workbook lacks.`,
      );
    }
    return text;
  }
  if (type === 'inlineStr') return value;
  return number(value, cell.style, parts);
}

/** A number, or a date where the cell's style formats it as one. */
function number(value: string, style: number, parts: WorkbookParts): Cell {
  const serial = parseFloat(value);
  // Style 0, the default, formats no date even where a workbook gives it a date format.
  const format = style > 0 ? (parts.dateFormats[style] ?? null) : null;
  if (format === null) return serial;
  // Rounded to the millisecond, as the date the serial always went through on the way.
  const offset = parts.system === 1904 ? 24_107 : 25_569;
  const rounded = (Math.round((serial - offset) * dayMs) + offset * dayMs) / dayMs;
  return dateCell(rounded, { showsTime: formatShowsTime(format), system: parts.system });
}

/** Entities left in a formula's text result after the XML's own were read, as ExcelJS read them. */
function decodeEntities(text: string): string {
  const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return text.replace(/&([a-z]*);/g, (whole, name: string) => entities[name] ?? whole);
}

/**
 * Whether a cell lies in a merged range other than at its top-left: rows come in order, so the
 * ranges are taken up as the rows reach them and let go once passed.
 */
function mergeLookup(ranges: MergedRange[]) {
  const byTop = [...ranges].sort((a, b) => a.top - b.top);
  let next = 0;
  let row = 0;
  let active: MergedRange[] = [];
  return (rowNumber: number, column: number): boolean => {
    if (rowNumber !== row) {
      row = rowNumber;
      active = active.filter((range) => range.bottom >= row);
      for (; next < byTop.length && (byTop[next] as MergedRange).top <= row; next++) {
        const range = byTop[next] as MergedRange;
        if (range.bottom >= row) active.push(range);
      }
    }
    return active.some(
      (range) =>
        column >= range.left &&
        column <= range.right &&
        !(rowNumber === range.top && column === range.left),
    );
  };
}
