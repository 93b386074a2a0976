import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessControl } from '../access/access-control.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import { adminOperation, problemResponses } from './schemas.ts';

const started = {
  userCode: Type.String({ description: 'The code the person signing in enters.' }),
  verificationUri: Type.String({ description: 'Where they enter it.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the code stops working.' }),
  message: Type.String({ description: "The provider's instructions, in words." }),
};

const SignInStarted = Type.Object(started);

const SignInStatus = Type.Union(
  [
    Type.Object({ state: Type.Literal('signed-out') }),
    Type.Object({ state: Type.Literal('pending'), ...started }),
    Type.Object({
      state: Type.Literal('signed-in'),
      account: Type.Union([Type.String(), Type.Null()], {
        description: 'Who signed in, as the provider names them (null when it would not say).',
      }),
      signedInAt: Type.String({ format: 'date-time' }),
    }),
    Type.Object({
      state: Type.Literal('failed'),
      reason: Type.Union([
        Type.Literal('declined'),
        Type.Literal('expired'),
        Type.Literal('refused'),
      ]),
      detail: Type.String(),
    }),
  ],
  {
    description:
      "pending: waiting for the person to enter the code; signed-in: the provider's documents are reached as that user; failed: the last sign-in did not complete (start another).",
  },
);

export interface SignInRouteDeps {
  providers: ProviderRegistry;
  access: AccessControl;
}

const path = '/admin/v1/providers/:provider/sign-in';
type ProviderRequest = FastifyRequest<{ Params: { provider: string } }>;

/**
 * Signing in to a provider as a user (a device code), for documents its application cannot
 * reach on its own: started here, completed by the person at the provider's page, and waited
 * for by the server. Every provider whose kind offers a sign-in is served alike; no answer ever
 * carries a token.
 */
export async function signInRoutes(
  app: FastifyInstance,
  { providers, access }: SignInRouteDeps,
): Promise<void> {
  app.addHook('onRequest', async (request) => access.admin(request));
  app.removeContentTypeParser('text/plain');
  const offering = providers.kinds().filter((kind) => kind.signInHint !== undefined);
  const params = Type.Object({
    provider: Type.String({
      description: `A provider that offers a sign-in: ${offering.map((kind) => `\`${kind.name}\``).join(', ')}.`,
    }),
  });

  app.post(
    path,
    {
      schema: {
        summary: 'Start signing in to a provider as a user (device code)',
        description:
          'Answers a code for the person to enter at `verificationUri`; the server then waits for the sign-in in the background (see the GET). A sign-in under way is replaced.',
        ...adminOperation('startProviderSignIn', 'sheets'),
        params,
        response: { 201: SignInStarted, ...problemResponses('startProviderSignIn') },
      },
    },
    async (request: ProviderRequest, reply) => {
      const started = await providers.configuredSignIn(request.params.provider).start();
      return reply.code(201).send(started);
    },
  );

  app.get(
    path,
    {
      schema: {
        summary: "Where the provider's sign-in stands",
        ...adminOperation('getProviderSignIn', 'sheets'),
        params,
        response: { 200: SignInStatus, ...problemResponses('getProviderSignIn') },
      },
    },
    async (request: ProviderRequest) =>
      (await providers.signIn(request.params.provider)?.status()) ?? { state: 'signed-out' },
  );

  app.delete(
    path,
    {
      schema: {
        summary: 'Sign out of a provider: forget the kept sign-in, or stop one under way',
        ...adminOperation('signOutProvider', 'sheets'),
        params,
        response: { 204: Type.Null(), ...problemResponses('signOutProvider') },
      },
    },
    async (request: ProviderRequest, reply) => {
      await providers.signIn(request.params.provider)?.signOut();
      return reply.code(204).send();
    },
  );
}
