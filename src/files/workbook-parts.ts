import type { DateSystem } from '../cells/cell.ts';
import { isDateFormat } from '../cells/number-format.ts';
import { worksheetPart } from './workbook-bounds.ts';
import { xmlEvents, type XmlEvent } from './xml-events.ts';
import type { ZipEntry } from './zip-archive.ts';

export { formatShowsTime, isDateFormat } from '../cells/number-format.ts';

/** What a worksheet's cells refer to, read from a workbook's other parts before its rows. */
export interface WorkbookParts {
  /** Worksheets in the workbook's order, each with the zip entry of its XML. */
  sheets: { name: string; entry: ZipEntry }[];
  /** The date system `<workbookPr date1904>` declares. */
  system: DateSystem;
  /** Each cell style's number format when it formats dates or times, by style index. */
  dateFormats: (string | null)[];
  /** The shared strings, rich text as its plain text. */
  sharedStrings: string[];
}

/** Number formats Excel knows by id alone (the ones ECMA-376 lists that ExcelJS reads). */
const builtInFormats: Record<number, string> = {
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy "h":mm',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
};

/**
 * Reads the parts a worksheet's rows need (the sheet list, the date system, the styles' date
 * formats and the shared strings), each found through the zip directory and parsed as it
 * inflates, whatever order the archive holds them in.
 */
export async function readWorkbookParts(path: string, entries: ZipEntry[]): Promise<WorkbookParts> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const each = async (name: string, onEvent: (event: XmlEvent) => void) => {
    const entry = byName.get(name);
    if (entry === undefined) return;
    for await (const batch of xmlEvents(path, entry)) batch.forEach(onEvent);
  };
  const targets = new Map<string, string>();
  await each('xl/_rels/workbook.xml.rels', (event) => {
    if (event.kind === 'open' && event.name === 'Relationship') {
      const { Id: id, Target: target } = event.attributes;
      if (id !== undefined && target !== undefined) targets.set(id, target);
    }
  });
  const sheets: WorkbookParts['sheets'] = [];
  let system: DateSystem = 1900;
  await each('xl/workbook.xml', (event) => {
    if (event.kind !== 'open') return;
    if (event.name === 'workbookPr') {
      // ExcelJS reads only "1"; LibreOffice writes "true", which XML reads alike.
      const flag = event.attributes.date1904;
      system = flag === '1' || flag === 'true' ? 1904 : 1900;
    } else if (event.name === 'sheet') {
      const target = targets.get(relationshipId(event.attributes) ?? '');
      // Chart sheets and dangling references have no worksheet XML: they are no worksheet. One
      // elsewhere than `xl/worksheets/` escaped the extent check: it is no worksheet either.
      const part = target === undefined ? '' : partName(target);
      const entry = worksheetPart.test(part) ? byName.get(part) : undefined;
      const name = event.attributes.name;
      if (entry !== undefined && name !== undefined) sheets.push({ name, entry });
    }
  });
  return {
    sheets,
    system,
    dateFormats: await readDateFormats((name, on) => each(name, on)),
    sharedStrings: await readSharedStrings((name, on) => each(name, on)),
  };
}

type EachEvent = (name: string, onEvent: (event: XmlEvent) => void) => Promise<void>;

/** `r:id`, whatever the relationships namespace's prefix. */
function relationshipId(attributes: Record<string, string>): string | undefined {
  const key = Object.keys(attributes).find((name) => /^(?:\w+:)?id$/.test(name) && name !== 'id');
  return key === undefined ? undefined : attributes[key];
}

/** A relationship's target inside the archive: relative to `xl/`, or absolute from the root. */
function partName(target: string): string {
  return `xl/${target.replace(/^(\s|\/xl\/)+/, '')}`;
}

async function readDateFormats(each: EachEvent): Promise<(string | null)[]> {
  const custom = new Map<number, string>();
  const styles: (string | null)[] = [];
  let inCellFormats = false;
  await each('xl/styles.xml', (event) => {
    if (event.kind === 'close') {
      if (event.name === 'cellXfs') inCellFormats = false;
      return;
    }
    if (event.kind !== 'open') return;
    if (event.name === 'numFmt') {
      const { numFmtId: id, formatCode } = event.attributes;
      if (id !== undefined && formatCode !== undefined) custom.set(Number(id), formatCode);
    } else if (event.name === 'cellXfs') {
      inCellFormats = true;
    } else if (event.name === 'xf' && inCellFormats) {
      const id = Number(event.attributes.numFmtId ?? 0);
      const format = custom.get(id) ?? builtInFormats[id] ?? null;
      styles.push(format !== null && isDateFormat(format) ? format : null);
    }
  });
  return styles;
}

/**
 * The shared strings, each the text of its `<t>` or of its runs' `<t>`s (phonetic guides left
 * out), with Excel's `_xHHHH_` escapes of characters XML cannot carry undone.
 */
async function readSharedStrings(each: EachEvent): Promise<string[]> {
  const strings: string[] = [];
  let text: string[] = [];
  let inText = false;
  let phonetic = 0;
  await each('xl/sharedStrings.xml', (event) => {
    if (event.kind === 'text') {
      if (inText && phonetic === 0) text.push(event.text);
    } else if (event.kind === 'open') {
      if (event.name === 'si') text = [];
      else if (event.name === 't') inText = true;
      else if (event.name === 'rPh') phonetic++;
    } else if (event.name === 't') inText = false;
    else if (event.name === 'rPh') phonetic--;
    else if (event.name === 'si') strings.push(unescapeText(text.join('')));
  });
  return strings;
}

/** `_x000D_` is a carriage return: how SpreadsheetML writes characters XML cannot hold. */
export function unescapeText(text: string): string {
  return text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}
