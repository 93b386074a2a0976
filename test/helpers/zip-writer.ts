/**
 * Zip archives and workbooks written by hand, byte by byte, so that tests can make the ones no
 * spreadsheet program would: sizes that lie, counts that lie, names listed twice, sheets of any
 * XML. Nothing here checks anything; the point is to write what the server must refuse.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  deflated: Buffer;
  /** The inflated size written in the archive's headers. */
  size: number;
  crc: number;
}

export function zipEntry(name: string, content: string | Buffer): ZipEntry {
  const raw = Buffer.from(content);
  return { name, deflated: deflateRawSync(raw), size: raw.length, crc: crc32(raw) };
}

/** Lies an archive may tell in its end record. */
export interface ZipLies {
  /** The file count the end record gives, instead of the true one. */
  count?: number;
}

/** A zip archive: local headers and data, the central directory, the end record. */
export function zipArchive(entries: ZipEntry[], lies: ZipLies = {}): Buffer {
  const local: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.deflated.length, 18);
    header.writeUInt32LE(entry.size >>> 0, 22);
    header.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(entry.deflated.length, 20);
    record.writeUInt32LE(entry.size >>> 0, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    local.push(header, name, entry.deflated);
    directory.push(record, name);
    offset += header.length + name.length + entry.deflated.length;
  }
  const central = Buffer.concat(directory);
  const count = lies.count ?? entries.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, central, end]);
}

/** The same archive with its end record's file count set to `count`, as a liar would. */
export function withEndCount(archive: Buffer, count: number): Buffer {
  const lying = Buffer.from(archive);
  const end = lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  lying.writeUInt16LE(count, end + 8);
  lying.writeUInt16LE(count, end + 10);
  return lying;
}

const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const packageRelationships = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** `<worksheet>` around `sheetData`, the rows of a worksheet's XML. */
export function worksheetXml(sheetData: string, before = ''): string {
  return `${xml}<worksheet xmlns="${main}">${before}<sheetData>${sheetData}</sheetData></worksheet>`;
}

/** An inline-string cell. */
export function textCell(ref: string, text: string): string {
  return `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
}

/**
 * The parts of a workbook of one worksheet named "Sheet", around its XML; `sheet` may be given
 * as an entry already, for one whose sizes lie.
 */
export function workbookEntries(sheet: string | ZipEntry): ZipEntry[] {
  return [
    zipEntry(
      '[Content_Types].xml',
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    zipEntry(
      '_rels/.rels',
      `${xml}<Relationships xmlns="${packageRelationships}"><Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    zipEntry(
      'xl/workbook.xml',
      `${xml}<workbook xmlns="${main}" xmlns:r="${relationships}"><sheets><sheet name="Sheet" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    zipEntry(
      'xl/_rels/workbook.xml.rels',
      `${xml}<Relationships xmlns="${packageRelationships}"><Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    typeof sheet === 'string' ? zipEntry('xl/worksheets/sheet1.xml', sheet) : sheet,
  ];
}

/** `A`, `B`, ..., `Z`, `AA`: the letters of a 1-based column number. */
export function columnLetters(n: number): string {
  let letters = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** A header row of `columns` named cells, and one cell far below, at `lastRow`. */
export function sparseSheet(columns: number, lastRow: number): string {
  const header = Array.from({ length: columns }, (_, i) =>
    textCell(`${columnLetters(i + 1)}1`, `c${i + 1}`),
  ).join('');
  return worksheetXml(
    `<row r="1">${header}</row><row r="${lastRow}"><c r="A${lastRow}"><v>1</v></c></row>`,
  );
}
