import { Problem } from '../../errors/problem.ts';
import type { ExcelSource } from './excel-source.ts';

/** A workbook as a user names it: by drive and item ids, or by a sharing link. */
export type WorkbookRef = { drive: string; item: string } | { link: string };

/**
 * The share id Graph resolves a sharing link by (`GET shares/{id}/driveItem`): `u!` and the
 * link in unpadded base64url.
 */
export function shareIdOf(link: string): string {
  return `u!${Buffer.from(link, 'utf8').toString('base64url')}`;
}

/** A workbook reference from a request's source: both ids, or a https link, never both. */
export function workbookRefOf(source: {
  drive?: string;
  item?: string;
  link?: string;
}): WorkbookRef {
  const { drive, item, link } = source;
  if (link !== undefined) {
    if (drive !== undefined || item !== undefined) {
      throw new Problem('invalid-body', 'Give either "link" or "drive" and "item", not both.');
    }
    if (!/^https:\/\/[^\s/]+\/\S*$/.test(link)) {
      throw new Problem(
        'invalid-body',
        `"link" must be a OneDrive or SharePoint sharing link (https://...); got "${link}".`,
      );
    }
    return { link };
  }
  if (drive === undefined || item === undefined) {
    throw new Problem(
      'invalid-body',
      'An Excel source needs "drive" and "item" (the ids Microsoft Graph gives the workbook), or a sharing "link".',
    );
  }
  return { drive, item };
}

/**
 * A workbook reference as one string, the document a connect names: the sharing link itself,
 * or `{drive}/{item}` (Graph's ids hold no `/`).
 */
export function documentOf(ref: WorkbookRef): string {
  return 'link' in ref ? ref.link : `${ref.drive}/${ref.item}`;
}

export function refOfDocument(document: string): WorkbookRef {
  if (document.startsWith('https://')) return { link: document };
  const slash = document.indexOf('/');
  return { drive: document.slice(0, slash), item: document.slice(slash + 1) };
}

/** A path segment of a Graph URL: ids hold `!` and `,` in SharePoint, which stay as they are. */
export const segment = (id: string) =>
  encodeURIComponent(id).replace(/%21/g, '!').replace(/%2C/gi, ',');

/** The workbook's root in Graph: `drives/{drive}/items/{item}/workbook/`. */
export function workbookPath(source: { drive: string; item: string }): string {
  return `drives/${segment(source.drive)}/items/${segment(source.item)}/workbook/`;
}

/** A worksheet by its id, which survives renames. */
export function worksheetPath(source: ExcelSource): string {
  return `${workbookPath(source)}worksheets/${segment(source.worksheetId)}/`;
}
