import { Problem } from '../errors/problem.ts';
import { detectDelimiter } from './csv-dialect.ts';
import type { CsvOptions } from './csv-options.ts';
import { FieldReader } from './csv-fields.ts';
import { decodedText } from './csv-text.ts';
import { FileEvidence, type FileReading } from './file-evidence.ts';
import { encodingFromBom, firstBytes, type TextEncoding } from './text-encoding.ts';

/** How a CSV file is to be read, as given or as its whole text says. */
export interface CsvScan {
  encoding: TextEncoding;
  delimiter: string;
  reading: FileReading;
}

/**
 * One pass over the whole file before anything is imported: it decodes the text (finding its
 * encoding), decides the delimiter from the first lines, and reads every field for what it says
 * about the decimal mark and the code columns (see `FileEvidence`). A file without a byte-order
 * mark is decoded as UTF-8; should a byte prove it is not, the pass starts again as
 * Windows-1252, what Excel on Windows writes. Deciding from the whole file rather than its first
 * lines means the first `12,50` at row 50,000 is seen before row 1 is stored, and the import
 * never meets a byte it cannot read.
 */
export async function scanCsv(
  path: string,
  options: CsvOptions,
  preferredDelimiter: string,
): Promise<CsvScan> {
  if (options.encoding !== undefined)
    return scanAs(path, options.encoding, options, preferredDelimiter);
  const declared = encodingFromBom(await firstBytes(path, 3));
  if (declared !== null) return scanAs(path, declared, options, preferredDelimiter);
  try {
    return await scanAs(path, 'utf-8', options, preferredDelimiter);
  } catch (error) {
    if (!(error instanceof Problem && error.extensions.encoding === 'utf-8')) throw error;
    return scanAs(path, 'windows-1252', options, preferredDelimiter);
  }
}

async function scanAs(
  path: string,
  encoding: TextEncoding,
  options: CsvOptions,
  preferredDelimiter: string,
): Promise<CsvScan> {
  const text = await decodedText(path, encoding);
  const delimiter =
    options.delimiter ?? detectDelimiter(text.sample, text.complete, preferredDelimiter);
  const evidence = new FileEvidence();
  const reader = new FieldReader(delimiter, (row, column, field) => {
    if (row > 0) evidence.see(column, field);
  });
  for await (const chunk of text.chunks) reader.push(chunk);
  reader.end();
  return { encoding, delimiter, reading: evidence.decide(options.decimal) };
}
