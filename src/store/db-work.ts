/**
 * Database work as a generator. The row engine is written once, as generators that `yield*` the
 * dialect's statements; each statement yields one driver call (a function of the connection)
 * for the dialect's driver to run, and receives its answer. The SQLite driver runs every call of
 * a unit synchronously, so a whole unit is one transaction that nothing else can interleave
 * with; the PostgreSQL driver awaits each call on the connection that holds the unit's
 * transaction. The engine never sees a driver call: only the dialect that made it runs it.
 */
export type DbWork<T> = Generator<unknown, T, unknown>;

/** Yields one driver call and hands back what the driver answered; `run` is the driver's own kind. */
export function* driverCall<S, T>(run: S): DbWork<T> {
  return (yield run) as T;
}

/** Database work that asks the database nothing and answers `value`, for pure JavaScript. */
// eslint-disable-next-line require-yield
export function* withoutDatabase<T>(value: T): DbWork<T> {
  return value;
}

/** Runs work whose driver calls are synchronous functions of `db`: the unit in one call stack. */
export function runSync<D, T>(work: DbWork<T>, db: D): T {
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

/** Runs work whose driver calls are asynchronous functions of `db`, one after the other. */
export async function runAsync<D, T>(work: DbWork<T>, db: D): Promise<T> {
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
