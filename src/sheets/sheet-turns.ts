import type { Problem } from '../errors/problem.ts';

/**
 * The order of work on each sheet on this server: one piece at a time, in arrival order (commits
 * of the write queue, re-reads of the mirror, deletes). Both the write queue and the mirror take
 * turns here, so neither needs the other to exist first.
 */
export class SheetTurns {
  /** The tail of each sheet's chain of work; a new piece starts when the one before ends. */
  readonly #tails = new Map<string, Promise<unknown>>();
  /** The refusals of work waiting for its turn, called on close. */
  readonly #waiting = new Set<(problem: Problem) => void>();
  /** Once the server stops taking work: the answer to every piece still waiting, and later. */
  #closed: Problem | null = null;

  /** Why work is refused, once closed; null while turns are given. */
  get closed(): Problem | null {
    return this.#closed;
  }

  /**
   * Runs `work` when nothing else is running on the sheet. Work still waiting for its turn when
   * the turns close is refused at once and never runs.
   */
  takeTurn<T>(sheetId: string, work: () => Promise<T>): Promise<T> {
    if (this.#closed !== null) return Promise.reject(this.#closed);
    const previous = this.#tails.get(sheetId) ?? Promise.resolve();
    let refuse: (problem: Problem) => void = () => {};
    const refused = new Promise<never>((_, reject) => (refuse = reject));
    this.#waiting.add(refuse);
    const turn = () => {
      this.#waiting.delete(refuse);
      return this.#closed === null ? work() : Promise.reject(this.#closed);
    };
    const run = previous.then(turn, turn);
    const tail = run.catch(() => undefined);
    this.#tails.set(sheetId, tail);
    void tail.then(() => {
      if (this.#tails.get(sheetId) === tail) this.#tails.delete(sheetId);
    });
    return Promise.race([run, refused]);
  }

  /** Refuses the work waiting for its turn, and every later piece, with `problem`. */
  close(problem: Problem): void {
    this.#closed = problem;
    for (const refuse of this.#waiting) refuse(problem);
    this.#waiting.clear();
  }
}
