/** What the emulator's own tests share: one emulator per file and reading Google errors. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import { serviceAccountClient, sheetsClient } from './clients.ts';
import {
  startGoogleSheetsEmulator,
  type GoogleSheetsEmulator,
  type ServiceAccountKey,
  type SpreadsheetInput,
} from './index.ts';

export interface EmulatorFixture {
  emulator: GoogleSheetsEmulator;
  key: ServiceAccountKey;
  /** A Sheets client signed in as `key`'s service account. */
  api: sheets_v4.Sheets;
  /** Creates a spreadsheet shared with `key`'s service account. */
  create(input: SpreadsheetInput): string;
}

/** Starts an emulator before the file's tests and closes it after them. */
export function useEmulator(): EmulatorFixture {
  const fixture = {} as EmulatorFixture;
  before(async () => {
    const emulator = await startGoogleSheetsEmulator();
    const key = emulator.serviceAccount();
    Object.assign(fixture, {
      emulator,
      key,
      api: sheetsClient(emulator, serviceAccountClient(emulator, key)),
      create: (input: SpreadsheetInput) =>
        emulator.createSpreadsheet({ ...input, sharedWith: [key.client_email] }),
    });
  });
  after(() => fixture.emulator.close());
  return fixture;
}

export interface FailedCall {
  status: number;
  body: unknown;
  headers: Headers;
}

/** The HTTP status, JSON body and headers of a call the client library rejected. */
export async function failure(call: Promise<unknown>): Promise<FailedCall> {
  try {
    await call;
  } catch (error) {
    // googleapis-common and google-auth-library each bundle their own gaxios, so no instanceof.
    const response = (error as { response?: { status: number; data: unknown; headers: Headers } })
      .response;
    if (response)
      return { status: response.status, body: response.data, headers: response.headers };
    throw error;
  }
  return assert.fail('the call succeeded');
}

export interface NetworkFailure {
  /** `ECONNRESET`, `ECONNREFUSED`, …; none for a client-side timeout. */
  code: string | undefined;
  /** `AbortError` when the client's `timeout` ran out. */
  name: string;
}

/** How a call that got no HTTP answer at all failed: a reset or refused socket, or a timeout. */
export async function networkFailure(call: Promise<unknown>): Promise<NetworkFailure> {
  try {
    await call;
  } catch (error) {
    const failed = error as { response?: { status: number }; code?: string; cause?: Error };
    if (failed.response) return assert.fail(`the call was answered ${failed.response.status}`);
    return { code: failed.code, name: failed.cause?.name ?? (error as Error).name };
  }
  return assert.fail('the call succeeded');
}

export const googleError = (code: number, status: string, message: string) => ({
  error: { code, message, status },
});
