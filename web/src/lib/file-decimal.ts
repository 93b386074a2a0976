import { readingOfText } from '../../../src/files/text-reading.ts';

/** How much of a file the browser reads to preselect its decimal mark; the server reads it all. */
const sampleBytes = 8 * 1024 * 1024;

/**
 * The decimal mark a text file's numbers ask for, by the rule the server applies (see
 * `text-reading.ts`), read from its first 8 MB: the upload form preselects it.
 */
export async function decimalOfFile(file: File): Promise<'.' | ','> {
  const text = await file.slice(0, sampleBytes).text();
  return readingOfText(text, file.size <= sampleBytes).decimal;
}
