import { useState } from 'preact/hooks';
import { ProblemMessage } from '../components/problem-message.tsx';
import { ScreenTitle } from '../components/screen-title.tsx';
import { useAction } from '../hooks/use-action.ts';

interface Props {
  reason: string | null;
  signIn: (token: string) => Promise<void>;
}

/**
 * Asks for the administrator token. The form posts nowhere: the token goes only into an
 * Authorization header, and into this tab's sessionStorage once the API accepts it.
 */
export function SignIn({ reason, signIn }: Props) {
  const [token, setToken] = useState('');
  const action = useAction();
  return (
    <section class="narrow">
      <ScreenTitle title="Sign in" />
      {reason !== null && <p class="notice">{reason}</p>}
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(() => signIn(token));
        }}
      >
        <label for="admin-token">Administrator token</label>
        <p class="hint" id="admin-token-hint">
          The value of <code>SHEETPORT_ADMIN_TOKEN</code> on the server. The console keeps it in
          this browser tab only, until you sign out or close the tab.
        </p>
        <input
          id="admin-token"
          type="password"
          autocomplete="current-password"
          required
          value={token}
          aria-describedby="admin-token-hint sign-in-problem"
          aria-invalid={action.problem !== null}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <ProblemMessage problem={action.problem} id="sign-in-problem" />
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
