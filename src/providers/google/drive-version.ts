import { drive } from '@googleapis/drive';
import type { GoogleIdentity } from './google-auth.ts';
import type { GoogleSettings } from './google-settings.ts';

/**
 * A spreadsheet's Drive `version`: a number Drive moves on every change to the file (values,
 * rows, metadata, formatting), so an unchanged version means an unchanged spreadsheet and spares
 * a read of its cells. Null when it cannot be known now: the caller reads the values instead.
 */
export type DriveVersionProbe = (spreadsheetId: string) => Promise<string | null>;

/** Drive's own root URL, the client library's default. */
export const defaultDriveUrl = 'https://www.googleapis.com/';

/** How long a project without the Drive API enabled (or a token without its scope) is not asked. */
const switchedOffMs = 5 * 60_000;

/**
 * Asks Drive `files.get` (fields=version) through Google's client library, with the identity's
 * credentials (the read-only Drive metadata scope). Never throws: whatever goes wrong (the Drive
 * API not enabled in the Cloud project, a user who has not consented to the scope, a spreadsheet
 * Drive does not show, Google unreachable) answers null, as nothing may fail a write for it.
 */
export function createDriveVersionProbe(
  identity: GoogleIdentity,
  settings: Pick<GoogleSettings, 'driveUrl' | 'deadlineMs'>,
): DriveVersionProbe {
  const api = drive({
    version: 'v3',
    auth: identity.auth,
    rootUrl: settings.driveUrl ?? defaultDriveUrl,
  });
  // One short try: a probe that waits stops saving the read it was meant to spare.
  const timeout = Math.min(5000, settings.deadlineMs);
  let askAgainAt = 0;
  return async (spreadsheetId) => {
    if (Date.now() < askAgainAt) return null;
    try {
      const file = await api.files.get(
        { fileId: spreadsheetId, fields: 'version', supportsAllDrives: true },
        { retry: false, timeout },
      );
      return typeof file.data.version === 'string' ? file.data.version : null;
    } catch (error) {
      // A 403 is the project's or the token's, not the spreadsheet's: it will not pass soon.
      if (statusOf(error) === 403) askAgainAt = Date.now() + switchedOffMs;
      return null;
    }
  };
}

function statusOf(error: unknown): number | undefined {
  return (error as { response?: { status?: number } } | null)?.response?.status;
}
