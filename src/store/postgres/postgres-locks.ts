import type { PoolClient } from 'pg';
import { LockLost } from '../store-records.ts';
import type { HeldLock } from '../store-records.ts';
import { bumpLockEpoch } from '../sql/sheet-sql.ts';
import { unreachableAs } from './postgres-errors.ts';

/**
 * A session lock on the sheet, held on a connection of its own while `work` runs. The lock
 * lives as long as that connection: when it dies the lock is gone (another server may take
 * it), which `work` learns from the signal or from `verify`, a query on that connection. Taking
 * it moves the sheet's epoch, which fences off the store writes of a server that lost it.
 */
export async function holdSheetLock<T>(
  client: PoolClient,
  sheetId: string,
  work: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  let epoch: number;
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [sheetId]);
    const bumped = await client.query<{ lock_epoch: string }>(bumpLockEpoch, [sheetId]);
    epoch = Number(bumped.rows[0]?.lock_epoch ?? 0);
  } catch (error) {
    client.release(true);
    throw unreachableAs(error);
  }
  const lost = new AbortController();
  const onLost = () => lost.abort(new LockLost(`The lock of sheet ${sheetId} was lost.`));
  client.on('error', onLost);
  client.on('end', onLost);
  const lock: HeldLock = {
    epoch,
    signal: lost.signal,
    verify: async () => {
      if (!lost.signal.aborted) await client.query('SELECT 1').catch(onLost);
      if (lost.signal.aborted) throw new LockLost(`The lock of sheet ${sheetId} was lost.`);
    },
  };
  try {
    return await work(lock);
  } finally {
    client.off('error', onLost);
    client.off('end', onLost);
    // A connection whose unlock failed may still hold the lock: it is closed, not reused,
    // and closing it is what releases the lock.
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [sheetId]).then(
      () => client.release(),
      () => client.release(true),
    );
  }
}

/** Counts a hit against `key`'s fixed window of `windowMs`, in one statement: servers never race. */
export async function countHit(
  client: PoolClient,
  key: string,
  windowMs: number,
): Promise<{ count: number; resetInMs: number }> {
  const { rows } = await client.query<{ count: number; reset_in_ms: number }>(
    `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN 1 ELSE r.count + 1 END,
       window_start = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN now() ELSE r.window_start END
     RETURNING count, extract(epoch FROM r.window_start + $2 * interval '1 millisecond' - now())::float8 * 1000 AS reset_in_ms`,
    [key, windowMs],
  );
  const row = rows[0] as { count: number; reset_in_ms: number };
  return { count: row.count, resetInMs: Math.max(0, Math.ceil(row.reset_in_ms)) };
}
