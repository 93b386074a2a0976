import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.ts';

/** A throwaway PostgreSQL for the Sheetport servers that share one database. */
export interface Database {
  /** The connection string to give SHEETPORT_DATABASE_URL. */
  url: string;
  /** CPU time PostgreSQL has used so far, all its processes, in seconds (Linux only; else null). */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL from the `embedded-postgres` package, as the tests do, with
 * its default settings (fsync on, synchronous_commit on): an acknowledged write is on disk, as
 * with SHEETPORT_SYNC=full on SQLite.
 */
export async function startDatabase(): Promise<Database> {
  const postgres = await startEmbeddedPostgres();
  const postmaster = Number(
    (await readFile(join(postgres.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  return {
    url: postgres.url,
    cpuSeconds: () => processTreeCpuSeconds(postmaster),
    stop: postgres.stop,
  };
}

/** Clock ticks per second of /proc/<pid>/stat: USER_HZ, 100 on every Linux in use. */
const ticksPerSecond = 100;

/** The fields of /proc/<pid>/stat after the command name, which is in parentheses and may hold spaces. */
function statFields(pid: string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU time of the postmaster, of its children still running (a backend per pooled connection)
 * and of those it has reaped (cutime, cstime), so the figure only grows.
 */
function processTreeCpuSeconds(root: number): number | null {
  const own = statFields(String(root));
  if (own === null) return null;
  // Fields from the state on: state, ppid, ... utime (11), stime (12), cutime (13), cstime (14).
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const fields = statFields(pid);
    if (fields !== null && Number(fields[1]) === root) {
      ticks += Number(fields[11]) + Number(fields[12]);
    }
  }
  return ticks / ticksPerSecond;
}
