import { Problem } from '../../errors/problem.ts';
import type { CredentialStore } from '../../store/provider-credentials.ts';
import { microsoftAccess } from './microsoft-access.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';

export const microsoftActions = ['sign-in', 'sign-out', 'status'] as const;
export type MicrosoftAction = (typeof microsoftActions)[number];

/**
 * `sheetport microsoft sign-in|sign-out|status`: the console's sign-in, from a terminal. Sign-in
 * prints Microsoft's instructions (the page and the code) and waits for the person to finish;
 * every action ends with where the sign-in stands, as one JSON line on stdout. Exits 1 when the
 * sign-in did not complete. The refresh token goes to the store, never to the terminal.
 */
export async function microsoftCommand(
  action: MicrosoftAction,
  settings: MicrosoftSettings,
  credentials: CredentialStore,
  out: { info: (line: string) => void; result: (line: string) => void },
): Promise<number> {
  const { signIn } = microsoftAccess(settings, credentials);
  if (signIn === null) {
    throw new Problem(
      'provider-not-configured',
      'signing in to Microsoft needs SHEETPORT_MICROSOFT_CLIENT_ID, the application (client) id of an app registered in Microsoft Entra (see README).',
    );
  }
  if (action === 'sign-out') {
    const removed = await signIn.signOut();
    out.info(removed ? 'signed out of Microsoft' : 'no one was signed in to Microsoft');
  } else if (action === 'sign-in') {
    const code = await signIn.start();
    out.info(code.message);
    out.info(`waiting until ${new Date(code.expiresAt).toISOString()} for the sign-in…`);
    const ended = await signIn.completion();
    out.result(JSON.stringify(ended));
    if (ended.state === 'failed') out.info(`sign-in failed: ${ended.detail}`);
    return ended.state === 'signed-in' ? 0 : 1;
  }
  out.result(JSON.stringify(await signIn.status()));
  return 0;
}
