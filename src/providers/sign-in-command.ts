import type { ProviderRegistry } from './registry.ts';

/** `sheetport sign-in|sign-out|sign-in-status PROVIDER`. */
export const signInActions = ['sign-in', 'sign-out', 'sign-in-status'] as const;
export type SignInAction = (typeof signInActions)[number];

export const isSignInAction = (command: string): command is SignInAction =>
  (signInActions as readonly string[]).includes(command);

/**
 * The console's sign-in, from a terminal, for any provider that offers one. Sign-in prints the
 * provider's instructions (the page and the code) and waits for the person to finish; every
 * action ends with where the sign-in stands, as one JSON line on stdout. Answers the exit code:
 * 1 when the sign-in did not complete. The token goes to the store, never to the terminal.
 */
export async function signInCommand(
  action: SignInAction,
  provider: string,
  providers: ProviderRegistry,
  out: { info: (line: string) => void; result: (line: string) => void },
): Promise<number> {
  const signIn = providers.configuredSignIn(provider);
  const { label } = providers.kind(provider);
  if (action === 'sign-out') {
    const removed = await signIn.signOut();
    out.info(removed ? `signed out of ${label}` : `no one was signed in to ${label}`);
  } else if (action === 'sign-in') {
    const started = await signIn.start();
    out.info(started.message);
    out.info(`waiting until ${started.expiresAt} for the sign-in…`);
    const ended = await signIn.completion();
    out.result(JSON.stringify(ended));
    if (ended.state === 'failed') out.info(`sign-in failed: ${ended.detail}`);
    return ended.state === 'signed-in' ? 0 : 1;
  }
  out.result(JSON.stringify(await signIn.status()));
  return 0;
}
