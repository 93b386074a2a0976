import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newApiKey } from '../access/api-keys.ts';
import { expiryOf, overlapEnd } from '../access/key-expiry.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { ApiKeyRecord } from '../store/store.ts';
import {
  adminOperation,
  adminParams,
  emptyBodyAsObject,
  keyParams,
  CreateApiKey,
  problemResponses,
  RotateApiKey,
} from './schemas.ts';
import { named } from './named-schemas.ts';

/** A key as listed: never its secret; `replaces` is read off the key that names it. */
const describeKey = (key: ApiKeyRecord, replaces: string | null) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt,
  expiresAt: key.expiresAt,
  rotatedTo: key.rotatedTo,
  replaces,
});

/** A new key of a sheet, with its secret, which only the answer that makes it holds. */
function keyFor(
  sheetId: string,
  name: string,
  scopes: string[],
  expiresAt: string | null,
): { record: ApiKeyRecord; key: string } {
  const { id, key, hash } = newApiKey();
  const createdAt = new Date().toISOString();
  return {
    record: { id, sheetId, name, scopes, hash, createdAt, expiresAt, rotatedTo: null },
    key,
  };
}

/**
 * A sheet's API keys: created with scopes (and an expiry, if asked) and shown once, listed
 * without secrets, rotated into a new key while the old one works on for an overlap, revoked.
 */
export async function keyRoutes(
  app: FastifyInstance,
  { sheets }: { sheets: Sheets },
): Promise<void> {
  type KeysRequest = FastifyRequest<{ Params: Static<typeof adminParams> }>;
  type KeyRequest = FastifyRequest<{ Params: Static<typeof keyParams> }>;
  const keyNotFound = (sheetName: string, keyId: string) =>
    new Problem('key-not-found', `Sheet "${sheetName}" has no key "${keyId}".`);

  app.post(
    '/admin/v1/sheets/:sheetId/keys',
    {
      schema: {
        summary: 'Create an API key for a sheet (its secret is in this answer only)',
        ...adminOperation('createApiKey', 'keys'),
        params: adminParams,
        body: CreateApiKey,
        response: { 201: named('NewApiKey'), ...problemResponses('createApiKey') },
      },
    },
    async (request: KeysRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      const body = request.body as Static<typeof CreateApiKey>;
      const expiresAt = expiryOf(body, Date.now());
      const { record, key } = keyFor(sheet.id, body.name ?? '', body.scopes, expiresAt);
      await sheets.createKey(record);
      return reply.code(201).send({ ...describeKey(record, null), key });
    },
  );

  app.get(
    '/admin/v1/sheets/:sheetId/keys',
    {
      schema: {
        summary: "List a sheet's API keys, without their secrets",
        ...adminOperation('listApiKeys', 'keys'),
        params: adminParams,
        response: { 200: Type.Array(named('ApiKey')), ...problemResponses('listApiKeys') },
      },
    },
    async (request: KeysRequest) => {
      const sheet = await sheets.get(request.params.sheetId);
      const keys = await sheets.listKeys(sheet.id);
      const replaced = new Map(keys.map((key) => [key.rotatedTo, key.id]));
      return keys.map((key) => describeKey(key, replaced.get(key.id) ?? null));
    },
  );

  app.post(
    '/admin/v1/sheets/:sheetId/keys/:keyId/rotate',
    {
      schema: {
        summary: 'Replace an API key with a new one of the same scopes and name',
        description:
          'The new key is in this answer only. The old one works on for `overlapSeconds` (a day by default; 0 revokes it now), never longer than it would have. A key is rotated once: rotate its successor next.',
        ...adminOperation('rotateApiKey', 'keys'),
        params: keyParams,
        body: RotateApiKey,
        response: { 201: named('NewApiKey'), ...problemResponses('rotateApiKey') },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request: KeyRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      const { keyId } = request.params;
      const body = request.body as Static<typeof RotateApiKey>;
      const now = Date.now();
      const expiresAt = expiryOf(body, now);
      const oldUntil = overlapEnd(body.overlapSeconds, now);
      const old = (await sheets.listKeys(sheet.id)).find((key) => key.id === keyId);
      if (old === undefined) throw keyNotFound(sheet.name, keyId);
      const { record, key } = keyFor(sheet.id, old.name, old.scopes, expiresAt);
      const outcome = await sheets.rotateKey(sheet.id, keyId, record, oldUntil);
      if (outcome === 'not-found') throw keyNotFound(sheet.name, keyId);
      if (outcome === 'already-rotated') {
        throw new Problem(
          'key-already-rotated',
          `Key "${keyId}" was already rotated; rotate the key that replaced it, or revoke that one first.`,
          { keyId },
        );
      }
      return reply.code(201).send({ ...describeKey(record, keyId), key });
    },
  );

  app.delete(
    '/admin/v1/sheets/:sheetId/keys/:keyId',
    {
      schema: {
        summary: 'Revoke an API key, at once',
        ...adminOperation('revokeApiKey', 'keys'),
        params: keyParams,
        response: { 204: Type.Null(), ...problemResponses('revokeApiKey') },
      },
    },
    async (request: KeyRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      if (!(await sheets.deleteKey(sheet.id, request.params.keyId))) {
        throw keyNotFound(sheet.name, request.params.keyId);
      }
      return reply.code(204).send();
    },
  );
}
