/** What the emulator's own tests share: one emulator per file, a signed-in app, and fetch calls. */
import { after, before } from 'node:test';
import {
  startGraphEmulator,
  type AppCredentials,
  type GraphEmulator,
  type ItemRef,
  type WorksheetInput,
} from './index.ts';

export interface Fixture {
  emulator: GraphEmulator;
  app: AppCredentials;
  /** An access token of `app` (client credentials). */
  token: string;
  /** A workbook in `app`'s tenant, and its Graph path `drives/{d}/items/{i}/workbook/`. */
  create(worksheets: WorksheetInput[]): { ref: ItemRef; workbook: string };
  /** A Graph call with `token` (or `headers.authorization`), answered as status, headers and JSON. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Starts an emulator before the file's tests and closes it after them. */
export function useEmulator(): Fixture {
  const fixture = {} as Fixture;
  before(async () => {
    const emulator = await startGraphEmulator();
    const app = emulator.registerApp();
    const token = await clientToken(emulator, app);
    Object.assign(fixture, {
      emulator,
      app,
      token,
      create: (worksheets: WorksheetInput[]) => {
        const ref = emulator.createWorkbook({ tenant: app.tenant, worksheets });
        return { ref, workbook: `drives/${ref.driveId}/items/${ref.itemId}/workbook/` };
      },
      call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        request(`${emulator.graphUrl}${path}`, method, body, {
          authorization: `Bearer ${token}`,
          ...headers,
        }),
    });
  });
  after(() => fixture.emulator.close());
  return fixture;
}

export async function request(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/** A form POST to the identity platform, `{tenant}/oauth2/v2.0/{endpoint}`. */
export async function login(
  emulator: GraphEmulator,
  tenant: string,
  endpoint: 'token' | 'devicecode',
  form: Record<string, string>,
): Promise<Answer> {
  const response = await fetch(`${emulator.loginUrl}${tenant}/oauth2/v2.0/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as unknown,
  };
}

export async function clientToken(emulator: GraphEmulator, app: AppCredentials): Promise<string> {
  const answer = await login(emulator, app.tenant, 'token', {
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: 'https://graph.microsoft.com/.default',
  });
  const token = (answer.body as { access_token?: string }).access_token;
  if (!token) throw new Error(`No token: ${JSON.stringify(answer.body)}`);
  return token;
}

/** `range(address='…')` with the address quoted and percent-encoded as a client sends it. */
export const range = (sheet: string, address: string): string =>
  `worksheets('${encodeURIComponent(sheet.replaceAll("'", "''"))}')/range(address='${encodeURIComponent(address)}')`;

export const errorCode = (answer: Answer): string | undefined =>
  (answer.body as { error?: { code?: string } } | undefined)?.error?.code;
