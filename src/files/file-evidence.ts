import { numberFromText, type DecimalMark } from '../cells/number-text.ts';

/**
 * `1.250`: 1250 in a file written with a decimal comma, 1.25 in one written with a point. When
 * nothing else in the file tells which, such a cell is kept as the text it is rather than guessed.
 */
const groupedThousands = /^-?[0-9]{1,3}(?:\.[0-9]{3})+$/;

/** A code (an SKU, a postcode, an account number): digits with a leading zero, `007`, `0123`. */
const leadingZeroDigits = /^0[0-9]+$/;

/** How the numbers of a delimited file are read, decided from every cell of it. */
export interface NumberReading {
  decimal: DecimalMark;
  /** Whether a cell shaped like `1.250` stays text: the file does not say which mark it uses. */
  groupedAsText: boolean;
}

/** What a whole file showed: `decimal` when given, else decided; and its code columns. */
export interface FileReading extends NumberReading {
  /** Indexes of the columns the file shows to hold codes, in order. */
  codeColumns: number[];
}

/**
 * What the cells of a delimited file say about how to read it, gathered cell by cell in one pass:
 * whether some cell only a decimal comma explains (`12,50`, `1.234,56`, `0,99`) or only a decimal
 * point explains (`1.5`, `0.25`), and, per column, whether a cell has a leading zero and whether
 * one has a decimal part under either reading.
 */
export class FileEvidence {
  #commaOnly = false;
  #pointOnly = false;
  readonly #leadingZero: boolean[] = [];
  readonly #pointFraction: boolean[] = [];
  readonly #commaFraction: boolean[] = [];

  /** Takes one field of a data row (not the header), as written. */
  see(column: number, text: string): void {
    // Most cells (names, whole numbers) hold neither mark nor a leading zero: they say nothing.
    if (text === '' || (text[0] !== '0' && !text.includes('.') && !text.includes(','))) return;
    if (leadingZeroDigits.test(text)) {
      this.#leadingZero[column] = true;
      return;
    }
    const point = numberFromText(text, '.');
    const comma = numberFromText(text, ',');
    if (comma !== null && point === null) this.#commaOnly = true;
    if (point !== null && comma === null) this.#pointOnly = true;
    if (point !== null && text.includes('.')) this.#pointFraction[column] = true;
    if (comma !== null && text.includes(',')) this.#commaFraction[column] = true;
  }

  /**
   * The reading the file asks for. The decimal comma if some cell only it explains and none only
   * the point explains; the point in the reverse case; otherwise the point, with `1.250` kept as
   * text. A column is a code column when some cell of it is digits with a leading zero and none
   * has a decimal part in the reading chosen.
   */
  decide(given: DecimalMark | undefined): FileReading {
    const reading: NumberReading =
      given !== undefined
        ? { decimal: given, groupedAsText: false }
        : this.#commaOnly && !this.#pointOnly
          ? { decimal: ',', groupedAsText: false }
          : this.#pointOnly && !this.#commaOnly
            ? { decimal: '.', groupedAsText: false }
            : { decimal: '.', groupedAsText: true };
    const fraction = reading.decimal === ',' ? this.#commaFraction : this.#pointFraction;
    const codeColumns: number[] = [];
    this.#leadingZero.forEach((seen, column) => {
      if (seen && fraction[column] !== true) codeColumns.push(column);
    });
    return { ...reading, codeColumns };
  }
}

/** Whether `text`, read under `reading`, is one of the cells kept as text for want of a sign. */
export function keptAsText(text: string, reading: NumberReading): boolean {
  return reading.groupedAsText && groupedThousands.test(text);
}
