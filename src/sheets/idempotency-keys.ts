import { Problem } from '../errors/problem.ts';
import {
  defaultKeyPruneBatch,
  defaultMaxProblemBytes,
  keyOutcome,
} from '../store/idempotency-records.ts';
import type { HeldKey, KeyClaim, KeyId, KeyOutcome, SheetStore } from '../store/store.ts';
import { fateAnswer, type WriteFate } from './write-path.ts';

export interface IdempotencySettings {
  /**
   * How long a request holds its key before another server may take it over; renewed every
   * third of it while the request runs, so only a server that is gone lets it pass.
   */
  leaseMs: number;
  /** How often keys past their day are removed. */
  pruneMs: number;
  /** Keys removed per transaction when pruning, so that writes never wait long behind it. */
  pruneBatch: number;
  /** The most bytes of JSON a stored problem answer takes (2xx answers are a few counts). */
  maxProblemBytes: number;
  /** Live keys one credential may hold on a sheet; 0 for no bound. */
  keysPerCredential: number;
  /** Live keys callers without a credential may hold on a sheet from one address; 0 for none. */
  keysPerAddress: number;
}

export const defaultIdempotencySettings: IdempotencySettings = {
  leaseMs: 30_000,
  pruneMs: 10 * 60_000,
  pruneBatch: defaultKeyPruneBatch,
  maxProblemBytes: defaultMaxProblemBytes,
  keysPerCredential: 10_000,
  keysPerAddress: 1_000,
};

/** Answers that say nothing was done and ask the client to come back: a retry may apply. */
const retryable = new Set<number>([429, 503]);
/** Answers that do not know whether the write applied. */
const undecided = new Set(['store-outcome-unknown', 'upstream-outcome-unknown']);

/**
 * Idempotency keys as the row routes use them: claimed before a write, held under a renewed
 * lease while it runs, and ended with what it answered. Expired keys are pruned on a schedule.
 */
export class IdempotencyKeys {
  #pruning: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: SheetStore,
    readonly settings: IdempotencySettings = defaultIdempotencySettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** `client` is the address of a caller without a credential, null for any other. */
  claim(id: KeyId, fingerprint: string, client: string | null): Promise<KeyClaim> {
    const { leaseMs, keysPerCredential, keysPerAddress } = this.settings;
    return this.store.claimIdempotencyKey(id, fingerprint, leaseMs, {
      perCredential: keysPerCredential,
      perClient: keysPerAddress,
      client,
    });
  }

  /** Renews the key's lease until the returned function is called. */
  hold(held: HeldKey): () => void {
    const timer = setInterval(() => {
      this.store.renewIdempotencyKey(held, this.settings.leaseMs).catch(this.onError);
    }, this.settings.leaseMs / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Ends a hold with the write's fate (null: a failure that says nothing, such as a bug; the key is
   * freed). A write whose key's answer was stored with it (its transaction, or the mark of the
   * push that carries it, which settling answers) leaves nothing to do. A write never sent frees
   * its key at once, whatever it answered. Otherwise 2xx and 4xx answers are kept to be sent
   * again; 429 and 503 (nothing done, try later) and other failures free the key; a write that
   * ran with an outcome not known leaves it answering 409, marked unknown.
   */
  async end(held: HeldKey, fate: WriteFate | null): Promise<void> {
    let outcome: KeyOutcome | 'unknown' | null;
    if (fate === null || fate.kind === 'unsent') outcome = null;
    else if (fate.kind === 'ran' && fate.recorded) return;
    else {
      const answer = fateAnswer(fate);
      if (!(answer instanceof Problem)) outcome = keyOutcome(answer);
      else if (fate.kind === 'ran' && undecided.has(answer.code)) outcome = 'unknown';
      else
        outcome =
          answer.status >= 500 || retryable.has(answer.status)
            ? null
            : keyOutcome(answer, this.settings.maxProblemBytes);
    }
    await this.store.settleIdempotencyKey(held, outcome).catch(this.onError);
  }

  startPruning(): void {
    this.#pruning ??= setInterval(() => {
      this.store.pruneIdempotencyKeys(this.settings.pruneBatch).catch(this.onError);
    }, this.settings.pruneMs);
    this.#pruning.unref();
  }

  stopPruning(): void {
    clearInterval(this.#pruning);
    this.#pruning = undefined;
  }
}
