/**
 * Lists the worksheets of an XLSX file in the browser, before it is uploaded, so the tab picker
 * can be shown at once without sending a large workbook twice. An XLSX file is a zip archive;
 * this reads its central directory, then `xl/workbook.xml` and its relationships, and nothing
 * else. Chart sheets are left out, as the server's importer leaves them out.
 */

/** The `tab` that asks for a sheet of every tab at once; no worksheet can be named `*`. */
export const allTabs = '*';

const endOfDirectory = 0x06054b50;
const directoryEntry = 0x02014b50;
const localHeader = 0x04034b50;

interface ZipEntry {
  method: number;
  compressedSize: number;
  offset: number;
}

/** The names of the workbook's worksheets in order; throws if the file is not a readable XLSX. */
export async function workbookTabs(file: Blob): Promise<string[]> {
  const entries = await readDirectory(file);
  const workbook = await readEntry(file, entries, 'xl/workbook.xml');
  const relsEntry = entries.has('xl/_rels/workbook.xml.rels')
    ? await readEntry(file, entries, 'xl/_rels/workbook.xml.rels')
    : '';
  const relationTypes = new Map<string, string>();
  for (const match of relsEntry.matchAll(/<(?:\w+:)?Relationship\b([^>]*)>/g)) {
    const attributes = parseAttributes(match[1] ?? '');
    relationTypes.set(attributes.get('Id') ?? '', attributes.get('Type') ?? '');
  }
  const tabs: string[] = [];
  for (const match of workbook.matchAll(/<(?:\w+:)?sheet\b([^>]*)>/g)) {
    const attributes = parseAttributes(match[1] ?? '');
    const name = attributes.get('name');
    const relation = [...attributes].find(([key]) => /^(\w+:)?id$/.test(key))?.[1];
    const type = relation === undefined ? undefined : relationTypes.get(relation);
    if (name !== undefined && (type === undefined || type.endsWith('/worksheet'))) tabs.push(name);
  }
  return tabs;
}

async function readDirectory(file: Blob): Promise<Map<string, ZipEntry>> {
  const tailStart = Math.max(0, file.size - 22 - 0xffff);
  const tail = new DataView(await file.slice(tailStart).arrayBuffer());
  let end = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (tail.getUint32(i, true) === endOfDirectory) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive');
  const size = tail.getUint32(end + 12, true);
  const start = tail.getUint32(end + 16, true);
  const directory = new DataView(await file.slice(start, start + size).arrayBuffer());
  const entries = new Map<string, ZipEntry>();
  const decoder = new TextDecoder();
  for (let at = 0; at + 46 <= directory.byteLength;) {
    if (directory.getUint32(at, true) !== directoryEntry) break;
    const nameLength = directory.getUint16(at + 28, true);
    const extraLength = directory.getUint16(at + 30, true);
    const commentLength = directory.getUint16(at + 32, true);
    const name = decoder.decode(
      new Uint8Array(directory.buffer, directory.byteOffset + at + 46, nameLength),
    );
    entries.set(name, {
      method: directory.getUint16(at + 10, true),
      compressedSize: directory.getUint32(at + 20, true),
      offset: directory.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function readEntry(file: Blob, entries: Map<string, ZipEntry>, name: string) {
  const entry = entries.get(name);
  if (entry === undefined) throw new Error(`no ${name} in the archive`);
  const header = new DataView(await file.slice(entry.offset, entry.offset + 30).arrayBuffer());
  if (header.getUint32(0, true) !== localHeader) throw new Error(`bad zip entry ${name}`);
  const dataStart = entry.offset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const data = file.slice(dataStart, dataStart + entry.compressedSize);
  if (entry.method === 0) return data.text();
  if (entry.method !== 8) throw new Error(`unsupported compression in ${name}`);
  const inflated = data.stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(inflated).text();
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(/([\w:]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set(match[1] ?? '', decodeXml(match[2] ?? match[3] ?? ''));
  }
  return attributes;
}

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return entities[name] ?? whole;
  });
}
