import { createContext } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { listSheets } from '../api/admin-api.ts';
import { ApiProblem } from '../api/problem.ts';
import { adminToken, onSignInNeeded, signIn, signOut } from '../api/session.ts';

export type AdminSession =
  | { state: 'checking' }
  | { state: 'needs-token'; reason: string | null }
  /** `tokenInUse` is false when the server has no administrator token and /admin/v1 is open. */
  | { state: 'signed-in'; tokenInUse: boolean };

/**
 * Whether the console may use the management API, found by asking it: GET /admin/v1/sheets
 * answers 401 when the server wants a token and this tab has none (or a wrong one).
 */
export function useAdminSession() {
  const [session, setSession] = useState<AdminSession>({ state: 'checking' });

  useEffect(() => {
    const refused = () => {
      signOut();
      setSession({
        state: 'needs-token',
        reason: 'The server refused the administrator token; sign in again.',
      });
    };
    const stop = onSignInNeeded(refused);
    const held = adminToken();
    listSheets(held).then(
      () => setSession({ state: 'signed-in', tokenInUse: held !== null }),
      (error: unknown) => {
        if (error instanceof ApiProblem && error.status === 401) {
          if (held === null) setSession({ state: 'needs-token', reason: null });
          else refused();
        } else {
          // Not a question of credentials: each screen shows what fails for it.
          setSession({ state: 'signed-in', tokenInUse: held !== null });
        }
      },
    );
    return stop;
  }, []);

  return {
    session,
    /** Tries a token against the API; keeps it for this tab only if the API accepts it. */
    async signIn(token: string): Promise<void> {
      await listSheets(token);
      signIn(token);
      setSession({ state: 'signed-in', tokenInUse: true });
    },
    signOut(): void {
      signOut();
      setSession({ state: 'needs-token', reason: null });
    },
  };
}

/** Whether requests carry an administrator token: when not, keys and access modes are idle. */
export const TokenInUse = createContext(false);
