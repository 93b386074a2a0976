/**
 * The administrator token, held in sessionStorage: it lasts as long as the tab, is never put in a
 * URL, and is sent only as an Authorization header to this server.
 */
const storageKey = 'sheetport.adminToken';

export function adminToken(): string | null {
  try {
    return sessionStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

export function signIn(token: string): void {
  sessionStorage.setItem(storageKey, token);
}

export function signOut(): void {
  sessionStorage.removeItem(storageKey);
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called when the management API refuses the token, so the console can ask for it again. */
export function onSignInNeeded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signInNeeded(): void {
  for (const listener of listeners) listener();
}
