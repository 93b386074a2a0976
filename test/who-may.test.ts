import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';
import { routeTable, type RouteForm } from './who-may-table.ts';

const adminToken = 'who-may-admin-token-0123456789';
const scopes = ['read', 'create', 'update', 'delete'] as const;

/** Every kind of caller, each with the headers it sends and the sheet it calls. */
type Credential =
  | { name: 'administrator' }
  | { name: string; scopes: readonly string[] }
  | { name: 'a key of another sheet' | 'an expired key' | 'a revoked key' | 'an unknown key' }
  | { name: string; anonymousOn: 'open' | 'public-read' | 'private' };

const pairs = scopes.flatMap((a, i) => scopes.slice(i + 1).map((b) => [a, b] as const));
const keyKinds: Credential[] = [
  ...scopes.map((scope) => ({ name: `a key with ${scope}`, scopes: [scope] })),
  ...pairs.map((pair) => ({ name: `a key with ${pair.join(' and ')}`, scopes: pair })),
  { name: 'a key with every scope', scopes },
  { name: 'a key of another sheet' },
  { name: 'an expired key' },
  { name: 'a revoked key' },
  { name: 'an unknown key' },
];
const anonymous: Credential[] = (['open', 'public-read', 'private'] as const).map((access) => ({
  name: `anonymous on a ${access} sheet`,
  anonymousOn: access,
}));

/**
 * What the table says a credential gets: the route's success status when it may, else the
 * refusal. A key answers 401 unless it is a valid key of the sheet, then 403 when it lacks a
 * scope the route needs.
 */
function expected(form: RouteForm, credential: Credential): { status: number; code?: string } {
  const allowed = { status: form.status };
  if (form.needs === 'administrator') {
    return credential.name === 'administrator' ? allowed : { status: 401, code: 'unauthorized' };
  }
  if (credential.name === 'administrator') return allowed;
  if ('anonymousOn' in credential) {
    if (credential.anonymousOn === 'open') return allowed;
    const readOnly = form.needs.every((scope) => scope === 'read');
    return credential.anonymousOn === 'public-read' && readOnly
      ? allowed
      : { status: 401, code: 'unauthorized' };
  }
  if (!('scopes' in credential)) return { status: 401, code: 'unauthorized' };
  return form.needs.every((scope) => credential.scopes.includes(scope))
    ? allowed
    : { status: 403, code: 'forbidden' };
}

interface Fixture {
  url: string;
  sheets: Record<'open' | 'public-read' | 'private', string>;
  headers: Map<string, Record<string, string>>;
}

async function fixture(t: TestContext, options: Partial<AppOptions>): Promise<Fixture> {
  const { url } = await build(t, options);
  const admin: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };
  const manage = async (path: string, method = 'GET', body?: unknown) => {
    const reply = await call(`${url}/admin/v1${path}`, { method, headers: admin, body });
    assert.ok(reply.status < 300, `${method} ${path}: ${reply.text}`);
    return reply.body as Record<string, unknown>;
  };
  // Enough rows that every allowed DELETE ?_id=0 finds one.
  const rows = Array.from({ length: 400 }, () => ({ name: 'Ann', note: 'x' }));
  const sheet = async (access: string) => {
    const made = await manage('/sheets', 'POST', { name: access, columns: ['name', 'note'], rows });
    await manage(`/sheets/${String(made.id)}`, 'PATCH', { access });
    return String(made.id);
  };
  const sheets = {
    open: await sheet('open'),
    'public-read': await sheet('public-read'),
    private: await sheet('private'),
  };
  const key = async (sheetId: string, keyScopes: readonly string[]) =>
    (await manage(`/sheets/${sheetId}/keys`, 'POST', { scopes: keyScopes })) as {
      id: string;
      key: string;
    };
  const headers = new Map<string, Record<string, string>>();
  headers.set('administrator', admin);
  for (const credential of keyKinds) {
    if ('scopes' in credential) {
      headers.set(credential.name, {
        'x-api-key': (await key(sheets.private, credential.scopes)).key,
      });
    }
  }
  const other = await key(sheets.open, scopes);
  headers.set('a key of another sheet', { authorization: `Bearer ${other.key}` });
  const rotated = await key(sheets.private, scopes);
  await manage(`/sheets/${sheets.private}/keys/${rotated.id}/rotate`, 'POST', {
    overlapSeconds: 0,
  });
  headers.set('an expired key', { 'x-api-key': rotated.key });
  const revoked = await key(sheets.private, scopes);
  await manage(`/sheets/${sheets.private}/keys/${revoked.id}`, 'DELETE');
  headers.set('a revoked key', { 'x-api-key': revoked.key });
  headers.set('an unknown key', { authorization: 'Bearer sp_nope' });
  for (const credential of anonymous) headers.set(credential.name, {});
  return { url, sheets, headers };
}

/** Sends one route form; an event stream is read only as far as its status. */
async function send(url: string, form: RouteForm, headers: Record<string, string>) {
  if (form.stream === true) {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    const text = response.ok ? '' : await response.text();
    controller.abort();
    return { status: response.status, code: text === '' ? undefined : JSON.parse(text).code };
  }
  const reply = await call(url, { method: form.method, headers, body: form.body });
  const code = (reply.body as { code?: string } | undefined)?.code;
  return { status: reply.status, code, text: reply.text };
}

for (const tokenSet of [true, false]) {
  test(`every route answers every credential as the table of who may do what says, ${tokenSet ? 'with' : 'without'} an administrator token`, async (t) => {
    const f = await fixture(t, tokenSet ? { adminToken } : {});
    // Without a token, only a caller with no credential is the administrator: anonymous
    // callers are that caller, and every key is held to what it is.
    const credentials: Credential[] = [
      { name: 'administrator' },
      ...keyKinds,
      ...(tokenSet ? anonymous : []),
    ];
    const mismatches: string[] = [];
    let checked = 0;
    for (const form of routeTable) {
      for (const credential of credentials) {
        const access = 'anonymousOn' in credential ? credential.anonymousOn : 'private';
        const url = `${f.url}${form.path.replace(':sheetId', f.sheets[access])}`;
        // A HEAD answer has no body to carry a code: its status is checked.
        const want = expected(form, credential);
        const got = await send(url, form, f.headers.get(credential.name) ?? {});
        checked += 1;
        if (
          got.status !== want.status ||
          (want.code !== undefined && form.method !== 'HEAD' && got.code !== want.code)
        ) {
          mismatches.push(
            `${form.method} ${form.path} by ${credential.name}: ${got.status} ${got.code ?? ''}, table says ${want.status} ${want.code ?? ''}`,
          );
        }
      }
    }
    assert.deepEqual(mismatches, []);
    assert.equal(checked, routeTable.length * credentials.length);
  });
}
