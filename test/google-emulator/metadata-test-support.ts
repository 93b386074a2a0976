/** What the developer metadata tests share: requests to build, and spreadsheets to start from. */
import type { sheets_v4 } from '@googleapis/sheets';
import { googleError, type EmulatorFixture } from './test-support.ts';

export type Metadata = sheets_v4.Schema$DeveloperMetadata;

export const create = (developerMetadata: Metadata): sheets_v4.Schema$Request => ({
  createDeveloperMetadata: { developerMetadata },
});

export const appendRow = (sheetId: number, text: string): sheets_v4.Schema$Request => ({
  appendCells: {
    sheetId,
    rows: [{ values: [{ userEnteredValue: { stringValue: text } }] }],
    fields: 'userEnteredValue',
  },
});

export const onSpreadsheet = { spreadsheet: true };

/** Requests and spreadsheets on the file's emulator (filled in before its tests run). */
export function metadataSheets(fixture: EmulatorFixture) {
  const batch = (spreadsheetId: string, requests: sheets_v4.Schema$Request[]) =>
    fixture.api.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests } });

  /** A spreadsheet of two tabs, Sheet1 (id 0) and Other, whose sheet id it also returns. */
  const twoTabs = async (): Promise<{ id: string; other: number }> => {
    const id = fixture.create({
      tabs: [
        { title: 'Sheet1', rows: [['a']] },
        { title: 'Other', rows: [] },
      ],
    });
    const { data } = await fixture.api.spreadsheets.get({ spreadsheetId: id });
    return { id, other: data.sheets?.[1]?.properties?.sheetId ?? -1 };
  };

  /** Two tabs with `seq` on the spreadsheet (id 1) and on Other (id 2), `owner` on Sheet1 (3). */
  const tagged = async (): Promise<{ id: string; other: number }> => {
    const sheet = await twoTabs();
    await batch(sheet.id, [
      create({
        metadataId: 1,
        metadataKey: 'seq',
        metadataValue: '7',
        location: onSpreadsheet,
        visibility: 'DOCUMENT',
      }),
      create({
        metadataId: 2,
        metadataKey: 'seq',
        metadataValue: '7',
        location: { sheetId: sheet.other },
        visibility: 'PROJECT',
      }),
      create({
        metadataId: 3,
        metadataKey: 'owner',
        location: { sheetId: 0 },
        visibility: 'DOCUMENT',
      }),
    ]);
    return sheet;
  };

  return { batch, twoTabs, tagged };
}

/** `id:key=value` of each entry, for comparing lists at a glance. */
export const keysAndValues = (entries: Metadata[] | undefined) =>
  (entries ?? []).map(
    (entry) => `${entry.metadataId}:${entry.metadataKey}=${entry.metadataValue ?? ''}`,
  );

export const badRequest = (message: string) => googleError(400, 'INVALID_ARGUMENT', message);
