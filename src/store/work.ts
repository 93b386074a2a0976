/**
 * Database work as a generator. The row engine is written once, as generators that `yield*` the
 * dialect's statements; each statement yields one step for the dialect's driver to run and
 * receives its result. The SQLite driver runs every step of a unit synchronously, so a whole
 * unit is one transaction that nothing else can interleave with; the PostgreSQL driver awaits
 * each step on the connection that holds the unit's transaction. The engine never sees a step:
 * only the dialect that made it runs it.
 */
export type Work<T> = Generator<unknown, T, unknown>;

/** Yields one step and hands back what the driver answered; the driver is the step's own kind. */
export function* step<S, T>(run: S): Work<T> {
  return (yield run) as T;
}

/** A generator that asks the database nothing, for work that is pure JavaScript. */
// eslint-disable-next-line require-yield
export function* done<T>(value: T): Work<T> {
  return value;
}

/** Runs work whose steps are synchronous functions of `db`: the whole unit in one call stack. */
export function runSync<D, T>(work: Work<T>, db: D): T {
  let next = work.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = (next.value as (db: D) => unknown)(db);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(result);
  }
  return next.value;
}

/** Runs work whose steps are asynchronous functions of `db`, one after the other. */
export async function runAsync<D, T>(work: Work<T>, db: D): Promise<T> {
  let next = work.next();
  while (!next.done) {
    let result: unknown;
    try {
      result = await (next.value as (db: D) => Promise<unknown>)(db);
    } catch (error) {
      next = work.throw(error);
      continue;
    }
    next = work.next(result);
  }
  return next.value;
}
