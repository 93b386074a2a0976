import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { Problem } from '../errors/problem.ts';
import { decodingStream } from './text-encoding.ts';

/** Characters of the file's start that its delimiter is decided from. */
export const sampleChars = 64 * 1024;

/**
 * The parser both passes over a file use. It skips blank lines and counts them, which is
 * linear, where handing each on as a record is quadratic in csv-parse (200,000 blank lines took
 * 10 s); the reader makes rows of the count.
 */
export function csvParser(delimiter: string): Parser {
  return parse({ delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
}

/**
 * The file's text as it decodes: its first `sampleChars` characters at once, to decide the
 * delimiter from, and all of it, those included, as chunks still to be read.
 */
export async function decodedText(path: string, encoding: string) {
  const decoder = decodingStream(encoding);
  pipeline(createReadStream(path), decoder, () => {});
  const pieces = decoder[Symbol.asyncIterator]() as AsyncIterator<string>;
  const head: string[] = [];
  let length = 0;
  let complete = false;
  try {
    while (length < sampleChars) {
      const piece = await pieces.next();
      if (piece.done) {
        complete = true;
        break;
      }
      head.push(piece.value);
      length += piece.value.length;
    }
  } catch (error) {
    decoder.destroy();
    throw error;
  }
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield* head;
      for (let piece = await pieces.next(); !piece.done; piece = await pieces.next()) {
        yield piece.value;
      }
    } finally {
      // Stopped early (a refused row): closing the decoder closes the file too.
      decoder.destroy();
    }
  }
  return { sample: head.join('').slice(0, sampleChars), complete, chunks: chunks() };
}

/** A record as the parser hands it over, with the count of blank lines skipped so far. */
export interface ParsedLine {
  record: string[];
  info: { empty_lines: number };
}

export async function next(
  records: AsyncIterator<ParsedLine>,
): Promise<IteratorResult<ParsedLine>> {
  try {
    return await records.next();
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw new Problem(
      'invalid-upload',
      `The CSV file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
