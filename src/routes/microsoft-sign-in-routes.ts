import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AccessControl } from '../access/access-control.ts';
import { Problem } from '../errors/problem.ts';
import type { MicrosoftSignIn } from '../providers/excel/microsoft-sign-in.ts';
import { adminOperation, problemResponses } from './schemas.ts';

const SignInStarted = Type.Object({
  userCode: Type.String({ description: 'The code the person signing in enters.' }),
  verificationUri: Type.String({ description: 'Where they enter it.' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the code stops working.' }),
  message: Type.String({ description: "Microsoft's instructions, in words." }),
});

const SignInStatus = Type.Union(
  [
    Type.Object({ state: Type.Literal('signed-out') }),
    Type.Object({
      state: Type.Literal('pending'),
      userCode: Type.String(),
      verificationUri: Type.String(),
      expiresAt: Type.String({ format: 'date-time' }),
      message: Type.String(),
    }),
    Type.Object({
      state: Type.Literal('signed-in'),
      account: Type.Union([Type.String(), Type.Null()], {
        description: 'Who signed in, as Microsoft Graph names them (null when it would not say).',
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
      'pending: waiting for the person to enter the code; signed-in: Excel workbooks are reached as that user; failed: the last sign-in did not complete (start another).',
  },
);

export interface MicrosoftSignInRouteDeps {
  /** Null when no Microsoft application is configured (SHEETPORT_MICROSOFT_CLIENT_ID). */
  signIn: MicrosoftSignIn | null;
  access: AccessControl;
}

const path = '/admin/v1/providers/excel/sign-in';

/**
 * Signing in to Microsoft as a user (the device-code flow), for Excel workbooks the application
 * cannot reach on its own: started here, completed by the person at Microsoft's page, and
 * polled for by the server. No answer ever carries a token.
 */
export async function microsoftSignInRoutes(
  app: FastifyInstance,
  { signIn, access }: MicrosoftSignInRouteDeps,
): Promise<void> {
  app.addHook('onRequest', async (request) => access.admin(request));
  app.removeContentTypeParser('text/plain');
  const configured = (): MicrosoftSignIn => {
    if (signIn !== null) return signIn;
    throw new Problem(
      'provider-not-configured',
      'Signing in to Microsoft needs the application (client) id of an app registered in Microsoft Entra: set SHEETPORT_MICROSOFT_CLIENT_ID (and SHEETPORT_MICROSOFT_TENANT_ID, or leave it unset for any account).',
    );
  };

  app.post(
    path,
    {
      schema: {
        summary: 'Start signing in to Microsoft as a user (device code)',
        description:
          'Answers a code for the person to enter at `verificationUri`; the server then waits for the sign-in in the background (see the GET). A sign-in under way is replaced.',
        ...adminOperation('startMicrosoftSignIn', 'sheets'),
        response: { 201: SignInStarted, ...problemResponses('startMicrosoftSignIn') },
      },
    },
    async (_request, reply) => {
      const code = await configured().start();
      return reply.code(201).send({
        userCode: code.userCode,
        verificationUri: code.verificationUri,
        expiresAt: new Date(code.expiresAt).toISOString(),
        message: code.message,
      });
    },
  );

  app.get(
    path,
    {
      schema: {
        summary: 'Where the Microsoft sign-in stands',
        ...adminOperation('getMicrosoftSignIn', 'sheets'),
        response: { 200: SignInStatus, ...problemResponses('getMicrosoftSignIn') },
      },
    },
    async () => (signIn === null ? { state: 'signed-out' } : signIn.status()),
  );

  app.delete(
    path,
    {
      schema: {
        summary: 'Sign out of Microsoft: forget the kept sign-in, or stop one under way',
        ...adminOperation('signOutMicrosoft', 'sheets'),
        response: { 204: Type.Null(), ...problemResponses('signOutMicrosoft') },
      },
    },
    async (_request, reply) => {
      await signIn?.signOut();
      return reply.code(204).send();
    },
  );
}
