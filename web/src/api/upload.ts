import { authHeaders } from './client.ts';
import { problemOf, unreachable } from './problem.ts';
import { signInNeeded } from './session.ts';
import type { Sheet, SheetsCreated, UploadFields } from './types.ts';

/**
 * Uploads a CSV or XLSX file as a new sheet (multipart POST /admin/v1/sheets), or as one sheet
 * per worksheet with `tab: '*'`. It uses XMLHttpRequest rather than fetch because only
 * XMLHttpRequest reports upload progress.
 */
export function uploadSheet(
  file: File,
  fields: UploadFields,
  onProgress: (fraction: number) => void,
): Promise<Sheet | SheetsCreated> {
  const form = new FormData();
  if (fields.name) form.append('name', fields.name);
  if (fields.tab) form.append('tab', fields.tab);
  if (fields.decimal !== undefined) form.append('decimal', fields.decimal);
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/admin/v1/sheets');
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(JSON.parse(xhr.responseText) as Sheet | SheetsCreated);
        return;
      }
      if (xhr.status === 401) signInNeeded();
      const type = xhr.getResponseHeader('content-type') ?? '';
      reject(problemOf(xhr.status, xhr.statusText, type, xhr.responseText));
    });
    xhr.addEventListener('error', () => reject(unreachable(new Error('the upload was cut off'))));
    xhr.send(form);
  });
}
