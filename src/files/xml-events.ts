import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { Problem } from '../errors/problem.ts';
import { entryStream, type ZipEntry } from './zip-archive.ts';

/** An element opening (`open`), its text, or its end, named without a namespace prefix. */
export type XmlEvent =
  | { kind: 'open'; name: string; attributes: Record<string, string> }
  | { kind: 'text'; text: string }
  | { kind: 'close'; name: string };

/**
 * The XML events of a zip entry, a batch per inflated chunk, parsed as the consumer asks for
 * them: the entry is never held whole, and a consumer that stops early stops the inflating.
 * XML that does not parse is refused as a damaged workbook.
 */
export async function* xmlEvents(path: string, entry: ZipEntry): AsyncGenerator<XmlEvent[]> {
  const parser = new SaxesParser();
  let batch: XmlEvent[] = [];
  parser.on('opentag', (tag) => {
    batch.push({
      kind: 'open',
      name: localName(tag.name),
      attributes: tag.attributes as Record<string, string>,
    });
  });
  parser.on('text', (text) => batch.push({ kind: 'text', text }));
  parser.on('cdata', (text) => batch.push({ kind: 'text', text }));
  parser.on('closetag', (tag) => batch.push({ kind: 'close', name: localName(tag.name) }));
  const stream = entryStream(path, entry);
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream) {
      parser.write(decoder.write(chunk as Buffer));
      yield batch;
      batch = [];
    }
    parser.write(decoder.end());
    parser.close();
    yield batch;
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw new Problem(
      'invalid-upload',
      `The XLSX file could not be read: "${entry.name}" ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    stream.destroy();
  }
}

/** `x:row` and `row` alike: some writers prefix SpreadsheetML's elements. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}
