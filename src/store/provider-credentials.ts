import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';

/**
 * A provider's credential that the store keeps for the server, such as the refresh token of a
 * user who signed in to Microsoft. It is a secret: nothing answers it, logs it or puts it in a
 * problem; only the code that spends it (delegated-tokens.ts) reads it.
 */
export interface ProviderCredential {
  /** Which credential: `microsoft`. */
  provider: string;
  /** Who signed in, as the provider names them (null when it would not say). */
  account: string | null;
  refreshToken: string;
  /** The application and tenant the token was issued to: another one cannot spend it. */
  clientId: string;
  tenant: string;
  scope: string;
  createdAt: string;
  /** When the token was last rotated. */
  updatedAt: string;
}

/** The statements of the credential table (written once, in sql/credential-sql.ts). */
export interface CredentialStatements {
  credential(provider: string): DbWork<ProviderCredential | null>;
  /** Inserts the credential, or replaces the one the provider had (a new sign-in). */
  putCredential(record: ProviderCredential): DbWork<void>;
  /**
   * Replaces the refresh token only if it is still `previous`: false when another server
   * rotated it (or someone signed out or in) meanwhile, and nothing changed.
   */
  rotateCredential(
    provider: string,
    previous: string,
    refreshToken: string,
    updatedAt: string,
  ): DbWork<boolean>;
  deleteCredential(provider: string): DbWork<boolean>;
}

type CredentialDialect = Pick<Dialect, 'read' | 'write' | 'withSheetLock' | 'credentials'>;

/** The credentials of a store, each read and write one transaction of its own. */
export class CredentialStore {
  readonly #db: CredentialDialect;
  /** The end of the last work queued by `exclusive` in this process. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(dialect: CredentialDialect) {
    this.#db = dialect;
  }

  /**
   * Runs `work` while no other holder of this store, in this process or another server, runs
   * work on the same credential: so that one refresh token is spent at a time.
   */
  exclusive<T>(provider: string, work: () => Promise<T>): Promise<T> {
    // A sheet id never holds a colon, so this lock is no sheet's.
    const run = () => this.#db.withSheetLock(`credential:${provider}`, () => work());
    const result = this.#turn.then(run, run);
    this.#turn = result.catch(() => undefined);
    return result;
  }

  get(provider: string): Promise<ProviderCredential | null> {
    return this.#db.read(() => this.#db.credentials.credential(provider));
  }

  put(record: ProviderCredential): Promise<void> {
    return this.#db.write(() => this.#db.credentials.putCredential(record));
  }

  /** See `CredentialStatements.rotateCredential`. */
  rotate(provider: string, previous: string, refreshToken: string): Promise<boolean> {
    const at = new Date().toISOString();
    return this.#db.write(() =>
      this.#db.credentials.rotateCredential(provider, previous, refreshToken, at),
    );
  }

  delete(provider: string): Promise<boolean> {
    return this.#db.write(() => this.#db.credentials.deleteCredential(provider));
  }
}
