import { decimalMarks, type DecimalMark } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { detectedDelimiters } from './csv-dialect.ts';
import { encodingName, type TextEncoding } from './text-encoding.ts';

/** How to read a CSV file: what is not given is detected from the file. */
export interface CsvOptions {
  delimiter?: string | undefined;
  encoding?: TextEncoding | undefined;
  decimal?: DecimalMark | undefined;
}

/** The options as a person gives them, in a form or on the command line. */
export interface GivenCsvOptions {
  delimiter?: string | undefined;
  encoding?: string | undefined;
  decimal?: string | undefined;
}

/**
 * Checks the reading options before anything is read or written: a delimiter is one character
 * that is not a quote or a line break, an encoding a label `TextDecoder` knows, and the decimal
 * mark `.` or `,`.
 */
export function csvOptions(given: GivenCsvOptions): CsvOptions {
  const { delimiter, encoding, decimal } = given;
  if (delimiter !== undefined && ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter))) {
    throw new Problem(
      'invalid-body',
      `The delimiter ${JSON.stringify(delimiter)} is not one character other than a quote or a line break; send one character, such as ${detectedDelimiters.map((d) => JSON.stringify(d)).join(', ')}, or leave it out to have it detected.`,
      { option: 'delimiter' },
    );
  }
  const name = encoding === undefined ? undefined : encodingName(encoding);
  if (name === null) {
    throw new Problem(
      'invalid-body',
      `The encoding ${JSON.stringify(encoding)} is not one this server knows; send a label such as "utf-8", "utf-16le", "windows-1252" or "iso-8859-15", or leave it out to have it detected.`,
      { option: 'encoding' },
    );
  }
  if (decimal !== undefined && !(decimalMarks as readonly string[]).includes(decimal)) {
    throw new Problem(
      'invalid-body',
      `The decimal mark ${JSON.stringify(decimal)} is neither "." nor ","; send "," to read 1.234,5 as a number, or leave it out to have it decided from the file.`,
      { option: 'decimal' },
    );
  }
  return { delimiter, encoding: name, decimal: decimal as DecimalMark | undefined };
}

/** Whether any option was given: they apply to CSV files only. */
export function givesCsvOptions(given: GivenCsvOptions): boolean {
  return (
    given.delimiter !== undefined || given.encoding !== undefined || given.decimal !== undefined
  );
}
