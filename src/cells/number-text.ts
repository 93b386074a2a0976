/**
 * When text in a delimited file (and a value typed in the console, and an equality filter) is a
 * number, decided in one place so that an upload, `sheetport import`, the console and `col=v`
 * all read `1.50` alike.
 */

/** The character between a number's whole part and its fraction, as a CSV file writes it. */
export const decimalMarks = ['.', ','] as const;
export type DecimalMark = (typeof decimalMarks)[number];

/**
 * The most significant digits a number may have and still be read exactly: any decimal of 15
 * digits survives the trip through a double and back, a 16-digit card number or id may not.
 */
export const maxSignificantDigits = 15;

const pointDecimal = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/**
 * A decimal comma, as much of Europe writes it: `-1234,5`, the whole part optionally grouped in
 * thousands by `.`, a space or a no-break space (U+00A0, U+202F), the same one throughout.
 */
const commaDecimal =
  /^-?(?:0|[1-9][0-9]*|[1-9][0-9]{0,2}([. \u00a0\u202f])[0-9]{3}(?:\1[0-9]{3})*)(?:,[0-9]+)?$/;

/** The smallest double that keeps full precision; below it, digits are lost. */
const smallestNormal = 2.2250738585072014e-308;

/**
 * The number `text` plainly is, or null when reading it as one would damage it. A number is a
 * plain decimal, `-?(0|[1-9][0-9]*)(\.[0-9]+)?` (with `decimal` `,`: `1234,5`, `1.234,50`,
 * `1 234`), of at most 15 significant digits (counted from the first non-zero digit to the last
 * written, trailing zeros included), and not `-0`. So `1.50` and `20.00` are numbers (1.5 and
 * 20), while `007`, `+5`, `1e3`, `.5`, `5.`, a 16-digit card number and, with a `.` mark,
 * `1,234` (1234 in one locale, 1.234 in another) are not.
 */
export function numberFromText(text: string, decimal: DecimalMark = '.'): number | null {
  let plain: string;
  if (decimal === '.') {
    if (!pointDecimal.test(text)) return null;
    plain = text;
  } else {
    const match = commaDecimal.exec(text);
    if (match === null) return null;
    const group = match[1];
    plain = (group === undefined ? text : text.split(group).join('')).replace(',', '.');
  }
  const digits = plain.replace(/[-.]/g, '').replace(/^0+/, '');
  if (digits.length > maxSignificantDigits) return null;
  const n = Number(plain);
  if (Object.is(n, -0)) return null;
  // So many zeros after the point that a double cannot hold the digits that follow them.
  if (digits !== '' && Math.abs(n) < smallestNormal) return null;
  return n;
}
