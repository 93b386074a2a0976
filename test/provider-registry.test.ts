import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { Problem } from '../src/errors/problem.ts';
import type { MirroredSource } from '../src/model/sheet.ts';
import { googleKind } from '../src/providers/google/google-kind.ts';
import type { ProviderTable } from '../src/providers/provider.ts';
import {
  ProviderRegistry,
  type LiveProvider,
  type ProviderKind,
} from '../src/providers/registry.ts';
import { build, call } from './helpers/build.ts';

/** A second provider, as a new package under providers/ would describe itself. */
const sampleKind: ProviderKind = {
  name: 'sample',
  label: 'Sample',
  requestSchema: Type.Object(
    {
      provider: Type.Literal('sample'),
      workbook: Type.String({ minLength: 1 }),
      tab: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
  sourceSchema: Type.Object({
    provider: Type.Literal('sample'),
    workbook: Type.String(),
    tab: Type.String(),
  }),
  statusSchema: Type.Object({ configured: Type.Boolean(), tenant: Type.String() }),
  unconfigured: { configured: false, tenant: '' },
  setupHint: 'set the sample settings.',
  parseSource: (source) => ({ document: String(source['workbook']), tab: 'Sheet1' }),
  tabOf: (source) => ({
    document: String(source['workbook']),
    id: String(source['tab']),
    title: String(source['tab']),
  }),
};

/** A sample provider whose one workbook holds one tab of two rows; it never writes. */
function sampleProvider(): LiveProvider {
  const table = (source: MirroredSource): ProviderTable => ({
    columns: ['name', 'age'],
    rows: [
      ['Ann', 31],
      ['Bob', 27],
    ],
    source,
    pushTags: new Map(),
  });
  const refuse = () => Promise.reject(new Problem('provider-read-only', 'read-only'));
  return {
    deadlineMs: 1000,
    connect: async ({ document, tab }) =>
      table({ provider: 'sample', workbook: document, tab: tab ?? 'Sheet1' }),
    connectEveryTab: refuse,
    read: async (source) => table(source as MirroredSource),
    changedSince: async () => ({ changed: false }),
    push: refuse,
    settle: refuse,
    writeSlot: async () => {},
    status: () => ({ configured: true, tenant: 'example' }),
    describe: () => 'Sample: tenant example',
  };
}

test('a provider added to the registry is created from, described and listed like Google', async (t) => {
  const providers = new ProviderRegistry(
    [googleKind, sampleKind],
    new Map([['sample', sampleProvider()]]),
  );
  const { url } = await build(t, {}, providers);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', source: { provider: 'sample', workbook: 'wb-1' } },
  });
  assert.equal(created.status, 201, created.text);
  const sheet = created.body as { id: string; source: unknown };
  assert.deepEqual(sheet.source, { provider: 'sample', workbook: 'wb-1', tab: 'Sheet1' });
  assert.deepEqual((await call(`${url}/api/v1/${sheet.id}`)).body, [
    { name: 'Ann', age: 31 },
    { name: 'Bob', age: 27 },
  ]);
  const again = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'sample', workbook: 'wb-1' } },
  });
  assert.equal(again.status, 409, again.text);

  assert.deepEqual((await call(`${url}/admin/v1/providers`)).body, {
    google: { configured: false, canWrite: false, shareWith: null },
    sample: { configured: true, tenant: 'example' },
  });

  const doc = (await call(`${url}/openapi.json`)).body as {
    paths: Record<string, { post?: { requestBody: unknown } }>;
  };
  const body = JSON.stringify(doc.paths['/admin/v1/sheets']?.post?.requestBody);
  assert.match(body, /"source":\{"oneOf":\[\{[^]*"enum":\["google"\][^]*"enum":\["sample"\]/);

  const wrong = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'sample', spreadsheetId: 'x' } },
  });
  assert.equal(wrong.status, 400, wrong.text);
  assert.equal((wrong.body as { code: string }).code, 'invalid-body');
});

test('the registry looks providers up by name, and says which are known and which configured', () => {
  const live = sampleProvider();
  const providers = new ProviderRegistry([googleKind, sampleKind], new Map([['sample', live]]));
  assert.equal(providers.providerOf({ provider: 'sample', workbook: 'w', tab: 't' }), live);
  assert.equal(providers.providerOf({ provider: 'google', spreadsheetId: 's' }), null);
  assert.equal(providers.providerOf({ provider: 'scratch' }), null);
  assert.deepEqual(providers.tabOf({ provider: 'sample', workbook: 'w', tab: 't' }), {
    document: 'w',
    id: 't',
    title: 't',
  });
  assert.throws(
    () => providers.kind('dropbox'),
    (error: Problem) => {
      assert.equal(error.code, 'unknown-provider');
      assert.match(error.message, /"google", "sample"/);
      return true;
    },
  );
  assert.throws(
    () => providers.live('google'),
    (error: Problem) => error.code === 'provider-not-configured',
  );
  assert.throws(() => new ProviderRegistry([googleKind], new Map([['sample', live]])));
});
