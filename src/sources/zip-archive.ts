import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { Problem } from '../errors/problem.ts';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
const localHeader = 0x04034b50;
/** The end record sits in the last 22 bytes, plus a comment of up to 64 KiB. */
const tailBytes = 22 + 65_535;

/** One file of a zip archive, as its central directory lists it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else this reader refuses. */
  method: number;
  compressedSize: number;
  /** As declared; 0xffffffff when the entry needs ZIP64. */
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
}

/** Reads the central directory of the zip archive open in `handle`. */
export async function readZipDirectory(handle: FileHandle): Promise<ZipEntry[]> {
  const { size } = await handle.stat();
  const tail = Buffer.alloc(Math.min(size, tailBytes));
  await handle.read(tail, 0, tail.length, size - tail.length);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === endOfDirectory) {
      end = i;
      break;
    }
  }
  if (end < 0) throw corruptZip();
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset + directorySize > size) throw corruptZip();
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryOffset);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== directoryEntry) {
      throw corruptZip();
    }
    const nameLength = directory.readUInt16LE(at + 28);
    entries.push({
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      offset: directory.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return entries;
}

/** Where an entry's bytes start, past its local header. */
export async function entryDataStart(handle: FileHandle, entry: ZipEntry): Promise<number> {
  const header = Buffer.alloc(30);
  await handle.read(header, 0, 30, entry.offset);
  if (header.readUInt32LE(0) !== localHeader) throw corruptZip();
  return entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/**
 * Inflates an entry as a stream, handing each piece to `onData`; stops early, keeping nothing,
 * once `onData` answers false. A damaged stream just ends: what it is worth is the caller's call.
 */
export function inflateEntry(
  path: string,
  start: number,
  entry: ZipEntry,
  onData: (chunk: Buffer) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (entry.compressedSize === 0) return resolve();
    const input = createReadStream(path, { start, end: start + entry.compressedSize - 1 });
    const stop = () => {
      input.destroy();
      output.destroy();
      resolve();
    };
    const output = entry.method === 0 ? input : input.pipe(createInflateRaw());
    output.on('data', (chunk: Buffer) => {
      if (!onData(chunk)) stop();
    });
    output.on('error', stop);
    output.on('end', () => resolve());
    input.on('error', stop);
  });
}

/** The text of one small entry, such as `xl/workbook.xml`; null past `maxBytes` or if absent. */
export async function readEntryText(
  handle: FileHandle,
  path: string,
  entries: ZipEntry[],
  name: string,
  maxBytes: number,
): Promise<string | null> {
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined || (entry.method !== 0 && entry.method !== 8)) return null;
  const chunks: Buffer[] = [];
  let bytes = 0;
  await inflateEntry(path, await entryDataStart(handle, entry), entry, (chunk) => {
    bytes += chunk.length;
    chunks.push(chunk);
    return bytes <= maxBytes;
  });
  return bytes > maxBytes ? null : Buffer.concat(chunks).toString('utf8');
}

export function corruptZip(): Problem {
  return new Problem(
    'invalid-upload',
    'The XLSX file could not be read: its zip directory is damaged.',
  );
}
