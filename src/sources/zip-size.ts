import { open } from 'node:fs/promises';
import { Problem } from '../errors/problem.ts';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
/** The end record sits in the last 22 bytes, plus a comment of up to 64 KiB. */
const tailBytes = 22 + 65_535;

/**
 * Refuses a zip archive (an XLSX workbook) that would inflate past `maxBytes`, reading only its
 * central directory: a few kilobytes of "zip bomb" must not become gigabytes in memory. Sizes
 * that need ZIP64 are over any sane limit and refused as such.
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
    let total = 0;
    let at = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== directoryEntry)
        throw corrupt();
      const unzipped = directory.readUInt32LE(at + 24);
      total += unzipped === 0xffffffff ? Number.POSITIVE_INFINITY : unzipped;
      at +=
        46 +
        directory.readUInt16LE(at + 28) +
        directory.readUInt16LE(at + 30) +
        directory.readUInt16LE(at + 32);
    }
    if (total > maxBytes) {
      throw new Problem(
        'body-too-large',
        `The workbook would unpack to more than ${Math.round(maxBytes / 1_048_576)} MiB; save it as CSV, or split it.`,
        { limit: 'unzippedSize', max: maxBytes },
      );
    }
  } finally {
    await handle.close();
  }
}

function corrupt(): Problem {
  return new Problem(
    'invalid-upload',
    'The XLSX file could not be read: its zip directory is damaged.',
  );
}
