import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { Problem } from '../errors/problem.ts';

/** How the text of a CSV file is encoded: a label `TextDecoder` knows, by its canonical name. */
export type TextEncoding = string;

/**
 * The encoding a byte-order mark declares, if the bytes start with one. UTF-32 is not among
 * them: TextDecoder has no UTF-32, and its little-endian mark starts like UTF-16's.
 */
export function encodingFromBom(head: Uint8Array): TextEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/** The canonical name of an encoding label (`latin1` is `windows-1252`), or null if unknown. */
export function encodingName(label: string): TextEncoding | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

export async function firstBytes(path: string, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of createReadStream(path, { start: 0, end: count - 1 })) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks, length);
}

/**
 * Decodes a byte stream as it flows. Bytes the encoding cannot read (a file declared UTF-8 that
 * is not) are refused with the line they sit on, rather than imported as replacement characters.
 */
export function decodingStream(encoding: TextEncoding): Transform {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let linesBefore = 0;
  const decode = (bytes: Buffer | undefined): string => {
    try {
      const text = bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) linesBefore++;
      return text;
    } catch {
      throw undecodable(encoding, linesBefore + 1 + linesUpToFirstError(encoding, bytes));
    }
  };
  return new Transform({
    readableObjectMode: true,
    transform(bytes: Buffer, _encoding, done) {
      try {
        done(null, decode(bytes));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        const rest = decode(undefined);
        done(null, rest === '' ? undefined : rest);
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/** Line breaks in a chunk before its first unreadable byte, to name the line it is on. */
function linesUpToFirstError(encoding: TextEncoding, bytes: Buffer | undefined): number {
  if (bytes === undefined) return 0;
  const text = new TextDecoder(encoding).decode(bytes);
  const bad = text.indexOf('\ufffd');
  return text.slice(0, bad < 0 ? text.length : bad).split('\n').length - 1;
}

function undecodable(encoding: TextEncoding, line: number): Problem {
  const name = 'name the encoding it was saved in ("encoding", or --encoding for sheetport import)';
  const advice = encoding === 'utf-8' ? `save it as "CSV UTF-8", or ${name}` : name;
  return new Problem(
    'invalid-upload',
    `Line ${line} of the file holds bytes that are not ${encoding} text; ${advice}.`,
    { line, encoding },
  );
}
