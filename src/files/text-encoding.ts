import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
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

/**
 * Decides how a text file is encoded: as its byte-order mark says; else UTF-8 if every byte of it
 * is valid UTF-8; else Windows-1252, what Excel on Windows writes ("CSV (Comma delimited)").
 *
 * The check reads the whole file once, as a stream that keeps nothing, before the import starts.
 * Checking only the first kilobytes would misjudge the common file of plain ASCII whose first
 * "é" comes at row 50,000, and could then only refuse it half-way; a pass over a file already on
 * disk costs far less than importing it, and the import then never meets a byte it cannot read.
 */
export async function detectEncoding(path: string): Promise<TextEncoding> {
  const head = await firstBytes(path, 3);
  const declared = encodingFromBom(head);
  if (declared !== null) return declared;
  return (await isUtf8File(path)) ? 'utf-8' : 'windows-1252';
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

/** Reads the file through one reused buffer: a pass over gigabytes allocates nothing. */
async function isUtf8File(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const buffer = Buffer.alloc(1 << 20);
    let carried = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, carried, buffer.length - carried, null);
      const filled = carried + bytesRead;
      if (bytesRead === 0) return carried === 0;
      const cut = completeLength(buffer.subarray(0, filled));
      if (!isUtf8(buffer.subarray(0, cut))) return false;
      buffer.copy(buffer, 0, cut, filled);
      carried = filled - cut;
    }
  } finally {
    await handle.close();
  }
}

/**
 * How many leading bytes end on a character boundary: a multi-byte character cut off at the end
 * of a chunk is left for the next one.
 */
export function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
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
