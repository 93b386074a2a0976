import { useEffect } from 'preact/hooks';
import {
  getMicrosoftSignIn,
  signOutMicrosoft,
  startMicrosoftSignIn,
  type SignInStatus,
} from '../api/microsoft-api.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';

/** How often a pending sign-in is asked about: the server itself polls Microsoft. */
const pollMs = 2000;

const failures: Record<Extract<SignInStatus, { state: 'failed' }>['reason'], string> = {
  declined: 'The sign-in was declined.',
  expired: 'The code expired before the sign-in was completed.',
  refused: 'Microsoft refused the sign-in.',
};

/**
 * "Sign in with Microsoft": starts the device-code sign-in, shows the code and the page to enter
 * it at, and follows it until the server says it is done.
 */
export function MicrosoftSignInPanel() {
  const status = useResource(getMicrosoftSignIn, 'microsoft-sign-in');
  const start = useAction();
  const end = useAction();
  const state = status.data?.state;

  useEffect(() => {
    if (state !== 'pending') return;
    const timer = setTimeout(status.reload, pollMs);
    return () => clearTimeout(timer);
  }, [state, status.data]);

  const signIn = () =>
    start.run(async () => {
      const started = await startMicrosoftSignIn();
      status.set({ state: 'pending', ...started });
    });
  const signOut = () =>
    end.run(async () => {
      await signOutMicrosoft();
      status.set({ state: 'signed-out' });
    });

  const current = status.data;
  return (
    <section class="panel stack" aria-labelledby="microsoft-sign-in-heading">
      <h3 id="microsoft-sign-in-heading">Sign in with Microsoft</h3>
      <ProblemMessage problem={status.problem} />
      {current?.state === 'signed-in' && (
        <>
          <p role="status">
            Signed in{current.account === null ? '' : ` as ${current.account}`}: Excel workbooks are
            reached as this account.
          </p>
          <button
            type="button"
            class="secondary"
            disabled={end.busy}
            onClick={() => void signOut()}
          >
            {end.busy ? 'Signing out…' : 'Sign out'}
          </button>
        </>
      )}
      {current?.state === 'pending' && (
        <div class="stack">
          <p>
            Open{' '}
            <a href={current.verificationUri} target="_blank" rel="noreferrer noopener">
              {current.verificationUri}
            </a>{' '}
            and enter this code, then consent:
          </p>
          <p>
            <code class="user-code" aria-label="Code to enter">
              {current.userCode}
            </code>{' '}
            <CopyButton text={current.userCode} label="the code" />
          </p>
          <p role="status">
            Waiting for the sign-in (the code works until{' '}
            {new Date(current.expiresAt).toLocaleTimeString()})…
          </p>
          <button
            type="button"
            class="secondary"
            disabled={end.busy}
            onClick={() => void signOut()}
          >
            Cancel
          </button>
        </div>
      )}
      {(current?.state === 'signed-out' || current?.state === 'failed') && (
        <>
          {current.state === 'failed' && (
            <p class="notice" role="status">
              {failures[current.reason]} {current.reason === 'refused' ? current.detail : ''}
            </p>
          )}
          <p class="hint">
            For a personal OneDrive, or to reach workbooks as yourself: Sheetport keeps the sign-in
            and acts as that account until someone signs out.
          </p>
          <button type="button" disabled={start.busy} onClick={() => void signIn()}>
            {start.busy ? 'Asking Microsoft for a code…' : 'Sign in with Microsoft'}
          </button>
        </>
      )}
      <ProblemMessage problem={start.problem ?? end.problem} />
    </section>
  );
}
