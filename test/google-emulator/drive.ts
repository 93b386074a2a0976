/**
 * The one Drive API v3 method Sheetport uses: `files.get` of a spreadsheet, for its `version`,
 * a number Drive moves on every change to the file (values, rows, metadata, formatting). Served
 * on the emulator's port under Drive's own path, `/drive/v3/files/{fileId}`.
 */
import { ApiError, type ErrorDetail } from './errors.ts';
import type { Book } from './state.ts';

/** Scopes that let a token read a file's metadata, as Drive's reference lists them for files.get. */
export const DRIVE_METADATA_SCOPES = [
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/drive.readonly',
  'https://www.googleapis.com/auth/drive.metadata',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
];

const SPREADSHEET_MIME_TYPE = 'application/vnd.google-apps.spreadsheet';

/** The file resource; without `fields`, Drive answers only these four members. */
export function driveFile(book: Book, fields: string | null): Record<string, unknown> {
  const file = {
    kind: 'drive#file',
    id: book.id,
    name: book.title,
    mimeType: SPREADSHEET_MIME_TYPE,
  };
  return fields === null ? file : { ...file, version: String(book.version) };
}

/** Drive's 404 for a file that does not exist or that the caller may not see. */
export const fileNotFound = (fileId: string): ApiError =>
  new ApiError('not-found', `File not found: ${fileId}.`, {
    errors: [
      {
        message: `File not found: ${fileId}.`,
        domain: 'global',
        reason: 'notFound',
        location: 'fileId',
        locationType: 'parameter',
      },
    ],
  });

/** What Google answers while the Drive API is not enabled in the caller's Cloud project. */
export function driveApiDisabled(): ApiError {
  const message =
    'Google Drive API has not been used in project 123456789012 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/drive.googleapis.com/overview?project=123456789012 then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.';
  const info: ErrorDetail = {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'SERVICE_DISABLED',
    domain: 'googleapis.com',
    metadata: { service: 'drive.googleapis.com', consumer: 'projects/123456789012' },
  };
  return new ApiError('permission-denied', message, {
    details: [info],
    errors: [
      {
        message,
        domain: 'usageLimits',
        reason: 'accessNotConfigured',
        extendedHelp: 'https://console.developers.google.com',
      },
    ],
  });
}
