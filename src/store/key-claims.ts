import type { ProblemCode, ProblemExtensions } from '../errors/problem.ts';
import type { WriteOutcome } from '../model/write-effect.ts';
import type { KeyId } from './store-records.ts';

// Idempotency keys as a request holds them, as a claim finds them, and as a push ties them.

/** A key this server holds while its request runs; `token` tells this hold from a later one. */
export interface HeldKey extends KeyId {
  token: string;
}

/** What a keyed write answered, kept to be answered again: its outcome, or its problem. */
export type KeyOutcome =
  | { kind: 'result'; outcome: WriteOutcome; version?: number | undefined }
  | {
      kind: 'problem';
      code: ProblemCode;
      detail: string;
      extensions: ProblemExtensions;
      headers: Record<string, string>;
    };

/** What claiming a key found; `full` when a new key would pass a bound of `KeyBounds`. */
export type KeyClaim =
  | { kind: 'claimed'; held: HeldKey }
  | { kind: 'replay'; outcome: KeyOutcome }
  | { kind: 'mismatch' }
  | { kind: 'in-use' }
  | { kind: 'full'; limit: 'perCredential' | 'perClient'; max: number; retryAfterSeconds: number };

/**
 * How many live keys one sender may hold on a sheet: per credential, and for callers without one
 * (who share it) per client address too. 0 turns a bound off.
 */
export interface KeyBounds {
  perCredential: number;
  perClient: number;
  /** The client's address, for callers without a credential; null otherwise. */
  client: string | null;
}

/** A key tied to a push, with the answer it keeps should its plan land (null: none, freed). */
export interface PushedKey {
  held: HeldKey;
  outcome: KeyOutcome | null;
}

/**
 * How a push ended, for the keys tied to it: the plan that landed (null: none did), and answers
 * known better than planned, which win.
 */
export interface PushEnd {
  plan: string | null;
  answers?: PushedKey[];
  /**
   * Answers by key (its scope and name) where the provider learned each write's own outcome:
   * a write of the landed plan that did not land is freed (null), one that landed in part keeps
   * the problem it was answered. They win over the plan's answers.
   */
  byKey?: { scope: string; key: string; outcome: KeyOutcome | null }[];
}
