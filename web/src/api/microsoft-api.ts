import { request } from './client.ts';
import type { Sheet, SheetsCreated } from './types.ts';

/** Signing in to Microsoft as a user, for Excel workbooks (README: "Signing in as a user"). */

const signInPath = '/admin/v1/providers/excel/sign-in';

export interface SignInStarted {
  userCode: string;
  verificationUri: string;
  expiresAt: string;
  message: string;
}

export type SignInStatus =
  | { state: 'signed-out' }
  | ({ state: 'pending' } & SignInStarted)
  | { state: 'signed-in'; account: string | null; signedInAt: string }
  | { state: 'failed'; reason: 'declined' | 'expired' | 'refused'; detail: string };

export const startMicrosoftSignIn = () => request<SignInStarted>('POST', signInPath);

export const getMicrosoftSignIn = () => request<SignInStatus>('GET', signInPath);

export const signOutMicrosoft = () => request<void>('DELETE', signInPath);

/** A workbook by its sharing link, or by the drive and item ids Graph gives it. */
export type WorkbookRef = { link: string } | { drive: string; item: string };

export interface ExcelConnection {
  workbook: WorkbookRef;
  /** The worksheet's name; the first worksheet when absent. */
  tab?: string;
  name?: string;
}

export const connectExcelSheet = ({ workbook, tab, name }: ExcelConnection) =>
  request<Sheet | SheetsCreated>('POST', '/admin/v1/sheets', {
    ...(name ? { name } : {}),
    source: { provider: 'excel', ...workbook, ...(tab ? { tab } : {}) },
  });
