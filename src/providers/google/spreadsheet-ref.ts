import { Problem } from '../../errors/problem.ts';

const bareId = /^[A-Za-z0-9_-]{20,}$/;
const inUrl = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/;

/** Accepts a spreadsheet id or the address of the spreadsheet as a browser shows it. */
export function parseSpreadsheetId(input: string): string {
  const text = input.trim();
  if (bareId.test(text)) return text;
  const match = inUrl.exec(text);
  if (match?.[1] !== undefined) return match[1];
  throw new Problem(
    'invalid-body',
    `"${input}" is neither a Google spreadsheet id nor its address; paste the address from the browser, e.g. https://docs.google.com/spreadsheets/d/<id>/edit.`,
  );
}

/** A tab title as a range in A1 notation: quoted, with quotes doubled, so any title works. */
export function tabRange(title: string): string {
  return `'${title.replaceAll("'", "''")}'`;
}
