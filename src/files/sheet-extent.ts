/**
 * What a worksheet's XML claims before any reader builds it: the far corner of its cells that
 * hold something, and how deep its elements nest. Read as the XML streams, keeping only the
 * piece of a tag cut off between chunks, so that a sheet can be refused before its rows are read.
 */
export interface Extent {
  /** The last row, 1-based, holding a cell with content; 0 for none. */
  lastRow: number;
  /** The last column, 1-based, holding a cell with content; 0 for none. */
  lastColumn: number;
  /** Rows and cells a reader would build, with content or formatting only. */
  held: number;
  /** The deepest nesting of elements. */
  depth: number;
}

/** Cells merged into one: all but the top-left one read empty. 1-based, inclusive. */
export interface MergedRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** No real tag comes near this; a longer one is let go rather than held (see below). */
const maxTagChars = 65_536;
const tag = /<(\/?)([A-Za-z_][^\s/>]*)([^>]*?)(\/?)>/g;
const reference = /^([A-Z]{1,3})([0-9]{1,7})$/;
const range = /^([A-Z]{1,3})([0-9]{1,7}):([A-Z]{1,3})([0-9]{1,7})$/;

/**
 * Starts a scan; `push` it the XML's text piece by piece, then read its `extent`, and its
 * `merged` ranges: they follow the rows in a worksheet, which are read as they stream.
 */
export function extentScanner() {
  const extent: Extent = { lastRow: 0, lastColumn: 0, held: 0, depth: 0 };
  const merged: MergedRange[] = [];
  let depth = 0;
  let row = 0;
  let column = 0;
  let carry = '';
  const onTag = (closing: boolean, name: string, attributes: string, empty: boolean) => {
    if (closing) {
      depth--;
      return;
    }
    if (!empty) extent.depth = Math.max(extent.depth, ++depth);
    const local = name.slice(name.indexOf(':') + 1);
    if (local === 'row') {
      extent.held++;
      row = numberAttribute(attributes) ?? row + 1;
      column = 0;
    } else if (local === 'c') {
      extent.held++;
      const ref = reference.exec(/\br\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1] ?? '');
      if (ref !== null) {
        column = columnNumber(ref[1] as string);
        row = Number(ref[2]);
      } else column++;
      // `<c r="XFD1048576" s="1"/>` only formats a cell; one with content has a body.
      if (!empty) {
        extent.lastRow = Math.max(extent.lastRow, row);
        extent.lastColumn = Math.max(extent.lastColumn, column);
      }
    } else if (local === 'mergeCell') {
      const ref = range.exec(/\bref\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1] ?? '');
      if (ref === null) return;
      // Held until the rows are read, so counted as a cell is.
      extent.held++;
      const [top, bottom] = [Number(ref[2]), Number(ref[4])];
      const [left, right] = [columnNumber(ref[1] as string), columnNumber(ref[3] as string)];
      merged.push({
        top: Math.min(top, bottom),
        left: Math.min(left, right),
        bottom: Math.max(top, bottom),
        right: Math.max(left, right),
      });
    }
  };
  return {
    extent,
    merged,
    push(text: string): void {
      const data = carry + text;
      // `<` cannot sit inside a tag, so all before the last one is whole tags and text.
      const last = data.lastIndexOf('<');
      const whole = last < 0 ? data : data.slice(0, last);
      carry = last < 0 ? '' : data.slice(last);
      const closed = carry.indexOf('>');
      if (closed >= 0) {
        // The last tag is whole too; the text after it matters to no tag.
        scan(whole + carry.slice(0, closed + 1));
        carry = '';
      } else {
        scan(whole);
        // A tag this long is no worksheet's; holding it would be the memory it costs. What it
        // hides is caught once the workbook is read, by the same limits.
        if (carry.length > maxTagChars) carry = '';
      }
    },
  };
  function scan(text: string): void {
    tag.lastIndex = 0;
    for (let match = tag.exec(text); match !== null; match = tag.exec(text)) {
      onTag(match[1] === '/', match[2] as string, match[3] as string, match[4] === '/');
    }
  }
}

/** `r="7"` of a row. */
function numberAttribute(attributes: string): number | null {
  const value = /\br\s*=\s*["']([0-9]{1,7})["']/.exec(attributes)?.[1];
  return value === undefined ? null : Number(value);
}

/** `A` is 1, `Z` 26, `AA` 27, `XFD` 16,384. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}
