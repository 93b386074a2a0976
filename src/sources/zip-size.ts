import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { Problem } from '../errors/problem.ts';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
/** The end record sits in the last 22 bytes, plus a comment of up to 64 KiB. */
const tailBytes = 22 + 65_535;

/**
 * Refuses a zip archive (an XLSX workbook) that would inflate past `maxBytes`: a few megabytes
 * of "zip bomb" must not become gigabytes in memory. The sizes its directory declares are
 * checked first; then, since a directory can lie, every entry is inflated as a stream, counting
 * bytes and keeping none, until the limit is passed. Sizes that need ZIP64 are refused.
 */
export async function checkUnzippedSize(path: string, maxBytes: number): Promise<void> {
  const handle = await open(path);
  try {
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
    if (end < 0) throw corrupt();
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) throw corrupt();
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    let declared = 0;
    const stored: { method: number; offset: number; size: number }[] = [];
    let at = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== directoryEntry) {
        throw corrupt();
      }
      const unzipped = directory.readUInt32LE(at + 24);
      declared += unzipped === 0xffffffff ? Number.POSITIVE_INFINITY : unzipped;
      stored.push({
        method: directory.readUInt16LE(at + 10),
        size: directory.readUInt32LE(at + 20),
        offset: directory.readUInt32LE(at + 42),
      });
      at +=
        46 +
        directory.readUInt16LE(at + 28) +
        directory.readUInt16LE(at + 30) +
        directory.readUInt16LE(at + 32);
    }
    if (declared > maxBytes) throw tooBig(maxBytes);
    let inflated = 0;
    for (const entry of stored) {
      const header = Buffer.alloc(30);
      await handle.read(header, 0, 30, entry.offset);
      if (header.readUInt32LE(0) !== 0x04034b50) throw corrupt();
      const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      if (entry.method === 0) inflated += entry.size;
      else if (entry.method === 8) {
        inflated += await inflatedSize(path, start, entry.size, maxBytes - inflated);
      } else throw corrupt();
      if (inflated > maxBytes) throw tooBig(maxBytes);
    }
  } finally {
    await handle.close();
  }
}

/** Inflates `size` bytes at `start`, counting output; stops as soon as it passes `budget`. */
function inflatedSize(path: string, start: number, size: number, budget: number): Promise<number> {
  return new Promise((resolve) => {
    if (size === 0) return resolve(0);
    let count = 0;
    const input = createReadStream(path, { start, end: start + size - 1 });
    const inflate = createInflateRaw();
    const stop = () => {
      input.destroy();
      inflate.destroy();
      resolve(count);
    };
    inflate.on('data', (chunk: Buffer) => {
      count += chunk.length;
      if (count > budget) stop();
    });
    // A damaged stream is left for the workbook reader to report; only its size matters here.
    inflate.on('error', stop);
    inflate.on('end', () => resolve(count));
    input.on('error', stop);
    input.pipe(inflate);
  });
}

function tooBig(maxBytes: number): Problem {
  return new Problem(
    'body-too-large',
    `The workbook would unpack to more than ${Math.round(maxBytes / 1_048_576)} MiB; save it as CSV, or split it.`,
    { limit: 'unzippedSize', max: maxBytes },
  );
}

function corrupt(): Problem {
  return new Problem(
    'invalid-upload',
    'The XLSX file could not be read: its zip directory is damaged.',
  );
}
