import type { Dialect } from './dialect.ts';
export type { ProviderCredential, CredentialStatements } from './store-records.ts';
import type { ProviderCredential } from './store-records.ts';

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
