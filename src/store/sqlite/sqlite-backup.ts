import Database from 'better-sqlite3';
import { privateDatabaseFile } from './private-files.ts';

/**
 * Copies a SQLite store to `destination` with SQLite's online backup, while a server may be
 * writing to it: the copy is of one moment, taken in one step under a read transaction, which in
 * WAL mode never blocks the server's writes. The copy is then checked with `integrity_check`.
 * The copy is readable by its owner only, like the store. Answers the copy's size in pages.
 */
export async function backupSqlite(source: string, destination: string): Promise<number> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    privateDatabaseFile(destination);
    // Copied in smaller steps, a write by the server between two of them would restart the copy.
    const { totalPages } = await db.backup(destination, { progress: () => 0x7fffffff });
    const copy = new Database(destination, { readonly: true, fileMustExist: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok')
        throw new Error(`the copy in ${destination} is damaged: ${String(check)}`);
    } finally {
      copy.close();
    }
    return totalPages;
  } finally {
    db.close();
  }
}
