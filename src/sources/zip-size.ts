import type { FileHandle } from 'node:fs/promises';
import { Problem } from '../errors/problem.ts';
import { corruptZip, entryDataStart, inflateEntry, type ZipEntry } from './zip-archive.ts';

/**
 * Refuses a zip archive (an XLSX workbook) that would inflate past `maxBytes`: a few megabytes
 * of "zip bomb" must not become gigabytes in memory. The sizes its directory declares are
 * checked first; then, since a directory can lie, every entry is inflated as a stream, counting
 * bytes and keeping none, until the limit is passed. Sizes that need ZIP64 are refused.
 */
export async function checkUnzippedSize(
  handle: FileHandle,
  path: string,
  entries: ZipEntry[],
  maxBytes: number,
): Promise<void> {
  let declared = 0;
  for (const entry of entries) {
    declared += entry.size === 0xffffffff ? Number.POSITIVE_INFINITY : entry.size;
  }
  if (declared > maxBytes) throw tooBig(maxBytes);
  let inflated = 0;
  for (const entry of entries) {
    const start = await entryDataStart(handle, entry);
    if (entry.method === 0) inflated += entry.compressedSize;
    else if (entry.method === 8) {
      // A damaged stream is left for the workbook reader to report; only its size matters here.
      await inflateEntry(path, start, entry, (chunk) => {
        inflated += chunk.length;
        return inflated <= maxBytes;
      });
    } else throw corruptZip();
    if (inflated > maxBytes) throw tooBig(maxBytes);
  }
}

function tooBig(maxBytes: number): Problem {
  return new Problem(
    'body-too-large',
    `The workbook would unpack to more than ${Math.round(maxBytes / 1_048_576)} MiB; save it as CSV, or split it.`,
    { limit: 'unzippedSize', max: maxBytes },
  );
}
