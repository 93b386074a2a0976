import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { headerChanged, Problem } from '../errors/problem.ts';
import type { Cell } from '../cells/cell.ts';
import type {
  AnchorBudget,
  PartlyLanded,
  ProviderTable,
  PushOutcome,
  SheetProvider,
} from '../providers/provider.ts';
import type { WriteEffect } from '../model/write-effect.ts';
import { keptAnswer } from '../store/idempotency-records.ts';
import type { WriteOp } from '../query/plan.ts';
import {
  LockLost,
  type HeldLock,
  type MirrorWrite,
  type PushedKey,
  type PushEnd,
  type SheetStore,
  type WriteRequest,
} from '../store/store.ts';
import { sameColumns, tabGoneAt, type Sheet } from '../model/sheet.ts';
import type { Checked, SheetMirror } from './sheet-mirror.ts';
import {
  ranRecorded,
  unsent,
  type CommitResult,
  type WriteFate,
  type WritePath,
} from './write-path.ts';
import type { PushedRows } from '../store/pushed-rows.ts';
import { effectOwners, notLanded, ownerOf, partlyLanded, pushJournal } from './push-owners.ts';

/** One plan of a push: its id (the value its tag would carry) and what it planned. */
interface Plan {
  id: string;
  planned: (MirrorWrite | Problem)[];
}

/**
 * Commits writes to a sheet mirrored from a provider, as one operation: lock the sheet, load the
 * copy, check it against the spreadsheet when the writes choose rows (or it is stale), plan in
 * memory, mark the sheet, push upstream as one atomic request that lands at most once, apply to
 * the copy, release. No database transaction spans the push: the mark is what tells every server
 * that a push is out, and the apply takes effect only while the mark is still this push's (the
 * fence against a server that lost the lock). Once the spreadsheet has the writes, they are
 * answered as done whatever the store does next; the marked copy is re-read when it can be.
 */
export class MirrorWritePath implements WritePath {
  constructor(
    private readonly store: SheetStore,
    private readonly mirror: SheetMirror,
    private readonly provider: SheetProvider,
  ) {}

  ready(): Promise<void> {
    return this.provider.writeSlot();
  }

  /** Servers sharing a store take turns: one at a time replays a sheet's writes upstream. */
  commit(
    stale: Sheet,
    writes: WriteRequest[],
    { firstArrival }: { firstArrival: number },
  ): Promise<WriteFate[]> {
    const deadline = firstArrival + this.provider.deadlineMs;
    return this.store.database.withSheetLock(stale.id, async (lock) => {
      const push = { id: '', marked: false };
      try {
        return await this.#commit(stale, writes, deadline, lock, push);
      } catch (error) {
        if (!(error instanceof LockLost)) throw error;
        // The store refused a write of this server's (its epoch is no longer the sheet's), or
        // its lock is gone: another server holds the sheet, and settles a push left marked.
        return writes.map(() => (push.marked ? ranRecorded(lockLost()) : unsent(moved())));
      } finally {
        if (push.marked) this.mirror.pushEnded(push.id);
      }
    });
  }

  async #commit(
    stale: Sheet,
    writes: WriteRequest[],
    deadline: number,
    lock: HeldLock,
    /** This commit's push, once marked: told to `commit`, which answers a lost lock by it. */
    push: { id: string; marked: boolean },
  ): Promise<WriteFate[]> {
    const loaded = await this.store.loadRows(stale.id);
    let checked: Checked = { ...loaded, base: null, tags: new Map() };
    const positional = writes.some(({ op }) => choosesRows(op));
    // A sheet whose tab was gone is checked again: writes go nowhere but to its tab.
    const gone = tabGoneAt(loaded.sheet.source) !== null;
    if (positional || gone || this.mirror.needsRead(loaded.sheet)) {
      checked = await this.mirror.check(loaded.sheet, loaded.rows, deadline, lock);
    }
    let { sheet, rows, base, tags } = checked;
    // The keys of the rows the push appends start at the copy's next id: its mark reserves them
    // (as many as the writes could append), and every plan of the push gives them out in order.
    const ridStart = loaded.sheet === sheet ? loaded.nextRid : (await this.#reload(sheet)).nextRid;
    const reserveRids = ridStart + appendsAtMost(writes);
    let rids = await this.#ridsOf(checked, loaded, reserveRids);
    const tag = randomInt(1, 2 ** 31);
    const pushId = String(tag);
    push.id = pushId;
    /** Plans sent earlier under this push's tag that may still land. */
    const earlier: Plan[] = [];
    /** Tags of the spreadsheet that guard nothing any more, removed with the push. */
    let prune: number[] = [];
    let marked = false;
    /** The plan whose rows the mark kept (see `PushedRows`). */
    let markedPlan = '';
    for (;;) {
      if (!sameColumns(sheet.columns, stale.columns) && earlier.length === 0) {
        const problem = headerChanged(sheet.name);
        if (!marked) return writes.map(() => ({ kind: 'refused', problem }));
        // A plan of the push went out and cannot land: the push is closed, its keys freed, and
        // the writes are answered as never applied (not kept: the retry is planned anew).
        await this.store.clearPushing(sheet.id, pushId, undefined, lock.epoch);
        return writes.map(() => ranRecorded(problem));
      }
      // Rows the copy has not taken yet will be a version of their own, as a re-read makes them.
      const planned = { ...sheet, version: sheet.version + (base === null ? 0 : 1) };
      const plan: Plan = {
        id: randomBytes(8).toString('base64url'),
        planned: sameColumns(sheet.columns, stale.columns)
          ? this.store.planOnRows(planned, rows, writes, { rids, nextRid: ridStart })
          : writes.map(() => headerChanged(sheet.name)),
      };
      const effects = plan.planned.flatMap((w) => (w instanceof Problem ? [] : w.effects));
      // Nothing to send, unless a plan sent earlier must be closed or confirmed (an empty push).
      if (effects.length === 0 && earlier.length === 0) {
        // Nothing of the push landed nor can: these answers stand, and its keys keep them.
        const settled = marked
          ? { pushId, end: { plan: null, answers: keyed(writes, plan) } }
          : null;
        if (base !== null) sheet = await this.#take(sheet, rows, lock, settled);
        else if (settled !== null) {
          await this.store.clearPushing(sheet.id, pushId, settled.end.answers, lock.epoch);
        }
        // Decided without a push: the keys keep these answers, unless the push's end did.
        return answers(plan, sheet.version).map((answer) =>
          marked ? ranRecorded(answer) : { kind: 'ran', answer, recorded: false },
        );
      }
      if (!marked) {
        if (Date.now() >= deadline) {
          if (base !== null) await this.#take(sheet, rows, lock);
          return plan.planned.map(() => unsent(deadlinePassed()));
        }
        // A provider that anchors the rows the writes choose does so before the push is marked,
        // so that a lock lost meanwhile leaves no push whose outcome is unknown.
        const prepared = await this.#prepare(sheet, effects, rows, positional, deadline);
        if (prepared instanceof Problem) {
          if (base !== null) await this.#take(sheet, rows, lock);
          return plan.planned.map(() => unsent(prepared));
        }
        if (prepared !== null) {
          // The tab moved while its rows were anchored: plan again on it.
          ({ sheet, rows, base, tags } = await this.mirror.pending(sheet, prepared, lock));
          continue;
        }
        await lock.verify();
        // The push's tag is counted in its spreadsheet's budget before anything is sent.
        const room = await this.#reserveTag(sheet, tag, plan.id, deadline);
        if (room === null) {
          if (base !== null) await this.#take(sheet, rows, lock);
          return plan.planned.map(() => unsent(tagsBusy()));
        }
        prune = room;
        const expect = { version: sheet.version, pushing: sheet.pushing ?? null };
        const keys = keyed(writes, plan);
        // The keys are recorded with the mark, before anything is sent.
        const unfenced = this.provider.unfencedMs ?? 0;
        const mark = {
          pushId,
          expect,
          plan: plan.id,
          keys,
          reserveRids,
          rows: pushedRows(plan),
          epoch: lock.epoch,
          ...(unfenced > 0 && { settleAfter: deadline + unfenced }),
        };
        if (!(await this.store.markPushing(sheet.id, mark))) {
          return writes.map(() => unsent(moved()));
        }
        // From here on the push's mark carries the keys: whatever follows, its end settles them.
        marked = true;
        markedPlan = plan.id;
        push.marked = true;
      } else if (!(await stillHeld(lock))) {
        // Another server may hold the sheet now: no new plan goes out from this one.
        return plan.planned.map((write) =>
          ranRecorded(write instanceof Problem ? write : lockLost()),
        );
      } else if (writes.some(({ idempotency }) => idempotency !== undefined)) {
        // A new plan of the push: its keys learn its answers before it is sent, should it land.
        const recorded = await this.store
          .pushIdempotencyKeys(sheet.id, pushId, plan.id, keyed(writes, plan))
          .catch(() => false);
        if (!recorded) {
          return plan.planned.map(() => ranRecorded(earlier.length > 0 ? lockLost() : moved()));
        }
      }
      if (marked && plan.id !== markedPlan) {
        // A later plan may append other rows: kept too, so that whichever plan lands, the read
        // that settles the push gives its rows the keys they were answered with.
        await this.store.keepPushedRows(sheet.id, pushId, pushedRows(plan)).catch(() => false);
      }
      let outcome;
      try {
        outcome = await this.provider.push(sheet, effects, {
          tag,
          plan: plan.id,
          earlier: earlier.map((each) => each.id),
          expected: { columns: sheet.columns, rows },
          positional,
          deadline,
          tags,
          prune,
          signal: lock.signal,
          holdsLock: () => stillHeld(lock),
          journal: pushJournal(this.store, sheet.id, pushId),
          owners: effectOwners(writes, plan.planned),
          ...this.#anchorBudget(sheet),
        });
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        if (error.code === 'tab-gone') await this.mirror.tabGone(sheet);
        // No attempt can land, and the push's tag was never made: it is no longer counted.
        if (error.code !== 'upstream-outcome-unknown') await this.#tagsAfter(sheet, tag, [tag]);
        const settled = await this.#settle(sheet, tag, pushId, error);
        if (typeof settled === 'object' && !(settled instanceof Problem)) {
          // Some writes landed and others did not: each hears its own outcome, and a re-read
          // (which settles the push again, to the same end) gives their keys the same answers.
          const landed = settled.plan === plan.id;
          await this.mirror.refreshIfStale(sheet.id, lock).catch(() => {});
          return plan.planned.map((write, i) => {
            if (write instanceof Problem) return ranRecorded(write);
            const owner = ownerOf(writes[i] as WriteRequest, i);
            if (landed && settled.missed.includes(owner)) return ranRecorded(notLanded());
            if (!landed || settled.partly.includes(owner)) {
              return ranRecorded(partlyLanded(sheet.name));
            }
            return ranRecorded({ outcome: write.outcome, effects: write.effects });
          });
        }
        if (settled instanceof Problem) {
          // Only a push none of whose attempts can land leaves the copy matching the spreadsheet.
          if (settled.code !== 'upstream-outcome-unknown') {
            await this.store.clearPushing(sheet.id, pushId, undefined, lock.epoch).catch(() => {});
            if (base !== null) await this.#take(sheet, rows, lock).catch(() => {});
          }
          return plan.planned.map((write) =>
            ranRecorded(write instanceof Problem ? write : settled),
          );
        }
        outcome = { landed: true as const, plan: settled };
      }
      if (outcome.landed) {
        // Tags the push removed are no longer counted; nor is its own once it guards nothing.
        const { pruned = [], unguarded = false } = outcome as PushLanded;
        await this.#tagsAfter(sheet, tag, pruned, unguarded);
        const landed = outcome.plan === plan.id ? plan : earlier.find((p) => p.id === outcome.plan);
        if (landed === undefined) throw new Error(`unknown plan ${outcome.plan}`);
        const results = await this.#applyLanded(
          sheet.id,
          pushId,
          landed,
          landed === plan,
          lock,
          base,
        );
        return results.map(ranRecorded);
      }
      // Not landed, and the tab changed meanwhile: plan again on it, under the same tag.
      if (outcome.mayLand) earlier.push(plan);
      const pending = await this.mirror.pending(sheet, outcome.table, lock, pushId);
      ({ sheet, rows, base, tags } = pending);
      rids = await this.#ridsOf(pending, null, reserveRids);
    }
  }

  /**
   * The ids (keys) of the rows a commit plans on: the copy's, or, for a tab read the copy has
   * not taken yet, those its rows will have once it does, with the push's writes (rows a person
   * added take ids after those the push reserves, `firstFree` on).
   */
  async #ridsOf(
    checked: Checked,
    loaded: { rows: Cell[][]; rids: number[] } | null,
    firstFree: number,
  ): Promise<number[]> {
    if (checked.base !== null) {
      return this.store.ridsAfterRead(checked.sheet.id, checked.base, firstFree);
    }
    if (loaded !== null && checked.rows === loaded.rows) return loaded.rids;
    return (await this.#reload(checked.sheet)).rids;
  }

  async #reload(sheet: Sheet): Promise<{ rids: number[]; nextRid: number }> {
    return this.store.loadRows(sheet.id);
  }

  /**
   * Counts the push's tag in its spreadsheet's budget, shared by every server, waiting while the
   * tags that may still guard an attempt leave no room (none is removed early: it could let a late
   * attempt land twice). Answers the tags that guard nothing any more; null past the deadline.
   */
  async #reserveTag(
    sheet: Sheet,
    tag: number,
    plan: string,
    deadline: number,
  ): Promise<number[] | null> {
    const budget = this.provider.tagBudget;
    if (budget === undefined) return [];
    const document = budget.documentOf(sheet);
    const entry = budget.entry(tag, { plan, deadline });
    for (;;) {
      const room = await this.store.reservePushTag(document, entry, budget.chars, Date.now());
      if (room.reserved) return room.expired;
      if (Date.now() + tagWaitMs >= deadline) return null;
      await sleep(tagWaitMs);
    }
  }

  /** The provider's preparation of a push (row anchors), before it is marked; see `prepare`. */
  async #prepare(
    sheet: Sheet,
    effects: WriteEffect[],
    rows: Cell[][],
    positional: boolean,
    deadline: number,
  ): Promise<ProviderTable | Problem | null> {
    if (this.provider.prepare === undefined || !positional) return null;
    try {
      const expected = { columns: sheet.columns, rows };
      const anchors = this.#anchorBudget(sheet);
      return await this.provider.prepare(sheet, effects, { expected, deadline, ...anchors });
    } catch (error) {
      if (error instanceof Problem) return error;
      throw error;
    }
  }

  /** Row anchors count in the spreadsheet's tag budget, in the store every server shares. */
  #anchorBudget(sheet: Sheet): { anchors?: AnchorBudget } {
    const budget = this.provider.tagBudget;
    if (budget === undefined) return {};
    const document = budget.documentOf(sheet);
    const { store } = this;
    return {
      anchors: {
        reserve: (tabId, anchors) =>
          store.reserveAnchors(document, tabId, anchors, {
            budget: budget.chars,
            chars: budget.anchorChars,
            now: Date.now(),
          }),
        forget: (ids) => store.forgetPushTags(document, ids),
        // Anchors keep to half of the budget: push tags never wait for them.
        capacity: Math.floor(budget.chars / 2 / budget.anchorChars),
      },
    };
  }

  /** Stops counting tags gone from the spreadsheet, and ends the guard of one that needs none. */
  async #tagsAfter(sheet: Sheet, tag: number, gone: number[], unguarded = false): Promise<void> {
    const budget = this.provider.tagBudget;
    if (budget === undefined) return;
    const document = budget.documentOf(sheet);
    try {
      await this.store.forgetPushTags(document, gone);
      if (unguarded) await this.store.guardPushTag(document, tag, Date.now());
    } catch {
      // Counted a while longer: the next push removes them again, or their guard ends.
    }
  }

  /** The copy takes rows read from the tab, when no push is to carry them. */
  async #take(
    sheet: Sheet,
    rows: Cell[][],
    lock: HeldLock,
    settled: { pushId: string; end: PushEnd } | null = null,
  ): Promise<Sheet> {
    const { id, columns } = sheet;
    const fence = { epoch: lock.epoch, pushing: settled?.pushId ?? null };
    const { sheet: current } = await this.store.replaceRows(
      id,
      columns,
      rows,
      null,
      settled ?? undefined,
      fence,
    );
    this.mirror.synced(sheet.id);
    return current;
  }

  /**
   * After the last attempt, when one may still land: closes the push, so that the client hears
   * either that it landed (the plan that did) or, truthfully, that nothing changed. When even
   * that cannot be done, the outcome stays unknown (504) and the marked copy is re-read later.
   */
  async #settle(
    sheet: Sheet,
    tag: number,
    pushId: string,
    error: Problem,
  ): Promise<string | PartlyLanded | Problem> {
    if (error.code !== 'upstream-outcome-unknown') return error;
    try {
      const journal = pushJournal(this.store, sheet.id, pushId);
      const landed = await this.provider.settle(sheet, tag, Date.now() + settleMs, journal);
      return landed ?? nothingLanded(error);
    } catch {
      return error;
    }
  }

  /**
   * The spreadsheet has `plan`: its answers stand whatever follows. The copy gets it too while
   * this server still holds the sheet; otherwise (lock lost, store away, an earlier plan that
   * landed on a tab since changed) the sheet stays marked and is re-read before it is trusted.
   */
  async #applyLanded(
    sheetId: string,
    pushId: string,
    plan: Plan,
    current: boolean,
    lock: HeldLock,
    base: Cell[][] | null,
  ): Promise<CommitResult[]> {
    if (current) {
      const accepted = plan.planned.filter((w): w is MirrorWrite => !(w instanceof Problem));
      try {
        await lock.verify();
        const applied = await this.store.applyPlanned(
          sheetId,
          pushId,
          accepted,
          'api',
          base,
          plan.id,
          lock.epoch,
        );
        if (applied !== null) {
          this.mirror.synced(sheetId);
          let next = 0;
          return plan.planned.map((w) => (w instanceof Problem ? w : (applied[next++] ?? w)));
        }
      } catch {
        // Whatever failed here (the lock lost, the store away, the sheet deleted meanwhile),
        // the spreadsheet has the writes: their answers stand, and a copy left is re-read.
      }
    }
    return answers(plan, null);
  }
}

type PushLanded = Extract<PushOutcome, { landed: true }>;

/** The batch's keys, each with the answer it keeps should `plan` land. */
function keyed(writes: WriteRequest[], plan: Plan): PushedKey[] {
  return writes.flatMap(({ idempotency }, i) => {
    const planned = plan.planned[i];
    if (idempotency === undefined || planned === undefined) return [];
    const result = planned instanceof Problem ? planned : { ...planned, version: undefined };
    // A header that changed under a push is no answer of the write's own: its retry plans anew.
    const moved = planned instanceof Problem && planned.code === 'header-changed';
    return [{ held: idempotency, outcome: moved ? null : keptAnswer(result) }];
  });
}

/** The rows a plan appends, with the keys it gave them (see `PushedRows`). */
function pushedRows(plan: Plan): PushedRows {
  const rows = plan.planned.flatMap((write) =>
    write instanceof Problem
      ? []
      : write.effects.flatMap((effect) =>
          effect.kind === 'append' && effect.rids !== undefined
            ? effect.rows.map((cells, i) => ({ rid: effect.rids?.[i] ?? -1, cells }))
            : [],
        ),
  );
  return { plan: plan.id, rows };
}

/** The most rows the writes can append: each body row of an upsert appends one at most. */
function appendsAtMost(writes: WriteRequest[]): number {
  return writes.reduce(
    (sum, { op }) => sum + (op.kind === 'append' || op.kind === 'upsert' ? op.rows.length : 0),
    0,
  );
}

/** Writes whose rows are chosen on the sheet as it is: all but plain appends. */
function choosesRows(op: WriteOp): boolean {
  return op.kind !== 'append';
}

/**
 * A plan's answers at `version` (the copy's, when no write changed it), or with no version when
 * the copy is to be re-read and the version the writes end at is not known here.
 */
function answers(plan: Plan, version: number | null): CommitResult[] {
  return plan.planned.map((write) => {
    if (write instanceof Problem) return write;
    const { outcome, effects } = write;
    return version === null ? { outcome, effects } : { outcome, effects, version };
  });
}

/** How long closing a push may take after its last attempt. */
const settleMs = 3000;

function nothingLanded(unknown: Problem): Problem {
  return new Problem(
    'upstream-unavailable',
    'The spreadsheet did not take this write, and Sheetport closed it so that no attempt of it can land later; nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': unknown.headers['retry-after'] ?? '1' },
  );
}

async function stillHeld(lock: HeldLock): Promise<boolean> {
  try {
    await lock.verify();
    return true;
  } catch (error) {
    if (error instanceof LockLost) return false;
    throw error;
  }
}

function lockLost(): Problem {
  return new Problem(
    'upstream-outcome-unknown',
    'This server lost the sheet to another while the write was out; it may or may not be in the spreadsheet, and the sheet is read again before it is served. Read the rows before sending the write again.',
    {},
    { 'retry-after': '1' },
  );
}

/** How often a push waiting for room in its spreadsheet's tag budget looks again. */
const tagWaitMs = 200;

function tagsBusy(): Problem {
  return new Problem(
    'upstream-unavailable',
    'The spreadsheet holds as many push tags as its budget allows, each still guarding a recent write against a late second copy, and none freed up before the deadline; nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': '5' },
  );
}

function deadlinePassed(): Problem {
  return new Problem(
    'upstream-unavailable',
    'The deadline for this write passed before it could be sent to the spreadsheet; nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': '1' },
  );
}

function moved(): Problem {
  return new Problem(
    'store-unavailable',
    'Another server took this sheet while this write was being planned; nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': '1' },
  );
}
