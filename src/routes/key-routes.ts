import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newApiKey } from '../access/api-keys.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { ApiKeyRecord } from '../store/store.ts';
import {
  adminOperation,
  adminParams,
  ApiKeyDescription,
  keyParams,
  NewApiKey,
  problemResponses,
} from './schemas.ts';

const describeKey = (key: ApiKeyRecord) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt,
});

/** A sheet's API keys: created with scopes and shown once, listed without secrets, revoked. */
export async function keyRoutes(
  app: FastifyInstance,
  { sheets }: { sheets: Sheets },
): Promise<void> {
  type KeysRequest = FastifyRequest<{ Params: Static<typeof adminParams> }>;

  app.post(
    '/admin/v1/sheets/:sheetId/keys',
    {
      schema: {
        summary: 'Create an API key for a sheet (its secret is in this answer only)',
        ...adminOperation('createApiKey', 'keys'),
        params: adminParams,
        body: NewApiKey,
        response: { 201: ApiKeyDescription, ...problemResponses('createApiKey') },
      },
    },
    async (request: KeysRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      const body = request.body as Static<typeof NewApiKey>;
      const { id, key, hash } = newApiKey();
      const record: ApiKeyRecord = {
        id,
        sheetId: sheet.id,
        name: body.name ?? '',
        scopes: body.scopes,
        hash,
        createdAt: new Date().toISOString(),
      };
      await sheets.createKey(record);
      return reply.code(201).send({ ...describeKey(record), key });
    },
  );

  app.get(
    '/admin/v1/sheets/:sheetId/keys',
    {
      schema: {
        summary: "List a sheet's API keys, without their secrets",
        ...adminOperation('listApiKeys', 'keys'),
        params: adminParams,
        response: { 200: Type.Array(ApiKeyDescription), ...problemResponses('listApiKeys') },
      },
    },
    async (request: KeysRequest) => {
      const sheet = await sheets.get(request.params.sheetId);
      return (await sheets.listKeys(sheet.id)).map(describeKey);
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
    async (request: FastifyRequest<{ Params: Static<typeof keyParams> }>, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      if (!(await sheets.deleteKey(sheet.id, request.params.keyId))) {
        throw new Problem(
          'key-not-found',
          `Sheet "${sheet.name}" has no key "${request.params.keyId}".`,
        );
      }
      return reply.code(204).send();
    },
  );
}
