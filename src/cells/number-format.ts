/**
 * What a spreadsheet number format says about the number it shows: whether it is a date, and
 * whether a time of day. One reading for every source of serials: uploaded workbooks and
 * workbooks read live.
 */

/**
 * Whether a number format shows a date or time: a date part outside quoted text and brackets.
 * It is the test ExcelJS makes, kept so that a workbook reads as it always has.
 */
export function isDateFormat(format: string): boolean {
  return /[ymdhMsb]+/.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/**
 * Whether a number format shows a time of day: `h`, `s` or an AM/PM marker outside quoted text,
 * escaped characters and bracketed colours or locales (`[h]` elapsed hours count).
 */
export function formatShowsTime(format: string): boolean {
  const tokens = format.replace(/"[^"]*"|\\.|_.|\*./g, '').replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[hs]|am\/pm|a\/p/i.test(tokens);
}
