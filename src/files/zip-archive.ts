import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { Problem } from '../errors/problem.ts';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
const localHeader = 0x04034b50;
/** The end record sits in the last 22 bytes, plus a comment of up to 64 KiB. */
const tailBytes = 22 + 65_535;
/** What a 16-bit or 32-bit field holds when the real value sits in a ZIP64 record. */
const zip64Count = 0xffff;
const zip64Size = 0xffffffff;

/** One file of a zip archive, as its central directory lists it and its local header agrees. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; the directory refuses anything else. */
  method: number;
  compressedSize: number;
  /** As declared; the size check holds the entry to it. */
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
  /** Where its compressed bytes start, past the local header. */
  dataStart: number;
}

/**
 * Reads the central directory of the zip archive open in `handle`, walking its records one by
 * one: the end record's count is only checked against them, never trusted, since a count of 0
 * would otherwise hide every entry from the size check while a workbook reader still finds
 * them. An archive whose parts disagree (counts, names, sizes or methods between directory and
 * local headers, entries that overlap or run past the directory, a name listed twice) is
 * refused: readers would each believe a different part of it.
 */
export async function readZipDirectory(handle: FileHandle): Promise<ZipEntry[]> {
  const { size } = await handle.stat();
  const tail = Buffer.alloc(Math.min(size, tailBytes));
  await handle.read(tail, 0, tail.length, size - tail.length);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (
      tail.readUInt32LE(i) === endOfDirectory &&
      i + 22 + tail.readUInt16LE(i + 20) <= tail.length
    ) {
      end = i;
      break;
    }
  }
  if (end < 0) throw corruptZip();
  const endAt = size - tail.length + end;
  const diskEntries = tail.readUInt16LE(end + 8);
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === zip64Count || directorySize === zip64Size || directoryOffset === zip64Size) {
    throw inconsistentZip('it needs ZIP64, which no workbook within the upload limit does');
  }
  if (tail.readUInt16LE(end + 4) !== 0 || tail.readUInt16LE(end + 6) !== 0) {
    throw inconsistentZip('it spans several disks');
  }
  if (directoryOffset + directorySize !== endAt) throw corruptZip();
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryOffset);
  const entries = walkDirectory(directory);
  if (entries.length !== count || entries.length !== diskEntries) {
    throw inconsistentZip(
      `its end record counts ${count} files where its directory lists ${entries.length}`,
    );
  }
  return checkLocalHeaders(handle, entries, directoryOffset);
}

/** Every record of the central directory, which must be records end to end. */
function walkDirectory(directory: Buffer): Omit<ZipEntry, 'dataStart'>[] {
  const entries: Omit<ZipEntry, 'dataStart'>[] = [];
  const names = new Set<string>();
  for (let at = 0; at < directory.length;) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== directoryEntry) {
      throw corruptZip();
    }
    const nameLength = directory.readUInt16LE(at + 28);
    const next =
      at + 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    if (next > directory.length) throw corruptZip();
    const entry = {
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      offset: directory.readUInt32LE(at + 42),
    };
    if ((directory.readUInt16LE(at + 8) & 1) !== 0) {
      throw inconsistentZip(`"${entry.name}" is encrypted`);
    }
    if (entry.method !== 0 && entry.method !== 8) {
      throw inconsistentZip(`"${entry.name}" is compressed by method ${entry.method}`);
    }
    if (
      entry.size === zip64Size ||
      entry.compressedSize === zip64Size ||
      entry.offset === zip64Size
    ) {
      throw inconsistentZip('it needs ZIP64, which no workbook within the upload limit does');
    }
    if (entry.method === 0 && entry.size !== entry.compressedSize) {
      throw inconsistentZip(`"${entry.name}" is stored, yet its two sizes differ`);
    }
    if (names.has(entry.name)) throw inconsistentZip(`"${entry.name}" is listed twice`);
    names.add(entry.name);
    entries.push(entry);
    if (entries.length > zip64Count) throw corruptZip();
    at = next;
  }
  return entries;
}

/**
 * Each entry's local header must name it and size it as the directory does (unless sizes
 * follow the data, as streaming writers do), and its bytes must end before the next entry
 * starts: overlapping entries would let one compressed stream count many times.
 */
async function checkLocalHeaders(
  handle: FileHandle,
  entries: Omit<ZipEntry, 'dataStart'>[],
  directoryOffset: number,
): Promise<ZipEntry[]> {
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  const checked = new Map<string, ZipEntry>();
  for (const [i, entry] of byOffset.entries()) {
    const header = Buffer.alloc(30 + Buffer.byteLength(entry.name));
    const { bytesRead } = await handle.read(header, 0, header.length, entry.offset);
    if (bytesRead < header.length || header.readUInt32LE(0) !== localHeader) throw corruptZip();
    const nameLength = header.readUInt16LE(26);
    const dataStart = entry.offset + 30 + nameLength + header.readUInt16LE(28);
    const sizesFollow = (header.readUInt16LE(6) & 8) !== 0;
    if (
      header.toString('utf8', 30, 30 + nameLength) !== entry.name ||
      header.readUInt16LE(8) !== entry.method ||
      (!sizesFollow &&
        (header.readUInt32LE(18) !== entry.compressedSize ||
          header.readUInt32LE(22) !== entry.size))
    ) {
      throw inconsistentZip(`the local header of "${entry.name}" disagrees with its directory`);
    }
    const limit = byOffset[i + 1]?.offset ?? directoryOffset;
    if (dataStart + entry.compressedSize > limit) {
      throw inconsistentZip(`"${entry.name}" overlaps what follows it`);
    }
    checked.set(entry.name, { ...entry, dataStart });
  }
  return entries.map((entry) => checked.get(entry.name) as ZipEntry);
}

/**
 * Inflates an entry as a stream, handing each piece to `onData`; stops early, keeping nothing,
 * once `onData` answers false. A damaged stream just ends: what it is worth is the caller's call.
 */
export function inflateEntry(
  path: string,
  entry: ZipEntry,
  onData: (chunk: Buffer) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    if (entry.compressedSize === 0) return resolve();
    const start = entry.dataStart;
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

/**
 * An entry's inflated bytes as a stream read as it is consumed, for an entry the size check has
 * already measured; a damaged stream errors.
 */
export function entryStream(path: string, entry: ZipEntry): Readable {
  if (entry.compressedSize === 0) return Readable.from([]);
  const start = entry.dataStart;
  const input = createReadStream(path, { start, end: start + entry.compressedSize - 1 });
  if (entry.method === 0) return input;
  const output = createInflateRaw();
  input.on('error', (error) => output.destroy(error));
  // A reader that stops early destroys the inflater; the file must close with it.
  output.on('close', () => input.destroy());
  return input.pipe(output);
}

/** The text of one small entry, such as `xl/workbook.xml`; null past `maxBytes` or if absent. */
export async function readEntryText(
  path: string,
  entries: ZipEntry[],
  name: string,
  maxBytes: number,
): Promise<string | null> {
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined) return null;
  const chunks: Buffer[] = [];
  let bytes = 0;
  await inflateEntry(path, entry, (chunk) => {
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

/** An archive whose parts tell different stories, which no spreadsheet program writes. */
export function inconsistentZip(why: string): Problem {
  return new Problem('invalid-upload', `The XLSX file is refused: ${why}.`);
}
