import { readFile } from 'node:fs/promises';
import assert from 'node:assert/strict';
import { call } from './build.ts';

/** A file of test/fixtures/, as bytes. */
export const fixture = (name: string) => readFile(new URL(`../fixtures/${name}`, import.meta.url));

export interface UploadOptions {
  /** The file name sent in the part; the fixture's own name by default. */
  fileName?: string;
  type?: string;
  /** Text parts; a list is sent as that many parts of one name (`textColumn`). */
  fields?: Record<string, string | string[]>;
}

/** Sends a multipart upload the way a browser form does: `file` plus optional text fields. */
export async function upload(
  url: string,
  content: Buffer | string,
  fileName: string,
  options: UploadOptions = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    for (const one of typeof value === 'string' ? [value] : value) form.append(name, one);
  }
  form.append(
    'file',
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)], {
      type: options.type ?? 'application/octet-stream',
    }),
    fileName,
  );
  return postForm(url, form);
}

export async function uploadFixture(url: string, name: string, options: UploadOptions = {}) {
  return upload(url, await fixture(name), options.fileName ?? name, options);
}

export async function postForm(url: string, form: FormData) {
  const response = await fetch(`${url}/admin/v1/sheets`, { method: 'POST', body: form });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    body: (type.includes('json') ? JSON.parse(text) : text) as Record<string, unknown>,
  };
}

export async function sheetIds(url: string): Promise<string[]> {
  const { body } = await call(`${url}/admin/v1/sheets`);
  return (body as { id: string }[]).map((sheet) => sheet.id);
}

export async function rowsOf(url: string, id: string): Promise<Record<string, unknown>[]> {
  const { status, body } = await call(`${url}/api/v1/${id}`);
  assert.equal(status, 200);
  return body as Record<string, unknown>[];
}
