import { Problem } from '../errors/problem.ts';
import { inconsistentZip, inflateEntry, type ZipEntry } from './zip-archive.ts';

/**
 * Refuses a zip archive (an XLSX workbook) that would inflate past `maxBytes`: a few megabytes
 * of "zip bomb" must not become gigabytes in memory. The sizes its directory declares are
 * summed first; then, since a directory can lie, every entry is inflated as a stream, counting
 * bytes and keeping none, and must come to exactly the size it declares (a workbook reader
 * trusts it), stopping as soon as an entry passes it or the whole passes the limit.
 */
export async function checkUnzippedSize(
  path: string,
  entries: ZipEntry[],
  maxBytes: number,
  /** Sees each entry's bytes as they inflate, and may refuse it by throwing once it ends. */
  watch: (entry: ZipEntry) => { data(chunk: Buffer): void; end(): void } | undefined = () =>
    undefined,
): Promise<void> {
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > maxBytes) throw tooBig(maxBytes);
  for (const entry of entries) {
    let inflated = 0;
    const watcher = watch(entry);
    let refused: unknown = null;
    await inflateEntry(path, entry, (chunk) => {
      inflated += chunk.length;
      if (inflated > entry.size) return false;
      try {
        watcher?.data(chunk);
        return true;
      } catch (error) {
        // Thrown here, inside a stream's listener, it would escape the request.
        refused = error;
        return false;
      }
    });
    if (refused !== null) throw refused;
    if (inflated !== entry.size) {
      throw inconsistentZip(
        `"${entry.name}" unpacks to ${inflated > entry.size ? 'more' : 'less'} than the ${entry.size} bytes it declares`,
      );
    }
    watcher?.end();
  }
}

function tooBig(maxBytes: number): Problem {
  return new Problem(
    'body-too-large',
    `The workbook would unpack to more than ${Math.round(maxBytes / 1_048_576)} MiB; save it as CSV, or split it.`,
    { limit: 'unzippedSize', max: maxBytes },
  );
}
