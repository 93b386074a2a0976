import { request } from './client.ts';
import type { operations } from './openapi.ts';
import type { MirroredTab, NewMirroredSheet, Sheet, SheetsCreated } from './types.ts';

/** Signing in to Microsoft as a user, for Excel workbooks (README: "Signing in as a user"). */

const signInPath = '/admin/v1/providers/excel/sign-in';

export type SignInStarted =
  operations['startProviderSignIn']['responses'][201]['content']['application/json'];

export type SignInStatus =
  operations['getProviderSignIn']['responses'][200]['content']['application/json'];

export const startMicrosoftSignIn = () => request<SignInStarted>('POST', signInPath);

export const getMicrosoftSignIn = () => request<SignInStatus>('GET', signInPath);

export const signOutMicrosoft = () => request<void>('DELETE', signInPath);

type ExcelTab = MirroredTab<'excel'>;

/**
 * A workbook by its sharing link, or by the drive and item ids Graph gives it. The document has
 * each of the three optional; the server asks for a link or both ids, and so does this type.
 */
export type WorkbookRef =
  Required<Pick<ExcelTab, 'link'>> | Required<Pick<ExcelTab, 'drive' | 'item'>>;

/** The worksheet's name is `tab`, the first worksheet when absent. */
export type ExcelConnection = { workbook: WorkbookRef } & Pick<ExcelTab, 'tab'> &
  Pick<NewMirroredSheet, 'name'>;

export const connectExcelSheet = ({ workbook, tab, name }: ExcelConnection) =>
  request<Sheet | SheetsCreated>('POST', '/admin/v1/sheets', {
    ...(name ? { name } : {}),
    source: { provider: 'excel', ...workbook, ...(tab ? { tab } : {}) },
  });
