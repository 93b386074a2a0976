import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Store files hold every sheet's rows, API key hashes and webhook secrets: they are readable by
 * their owner only, whatever the umask. chmod is used, not the mode of open or mkdir alone,
 * because the umask only takes bits away and cannot be relied on to take the right ones.
 */

/** Creates `path`'s directory (and its parents) as 0700 if missing; a directory there is kept. */
export function privateDirectory(path: string): void {
  const dir = dirname(path);
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) {
    // Every directory made, from the first missing one down.
    for (let made = dir; made.length >= created.length; made = dirname(made)) {
      chmodSync(made, 0o700);
      if (made === created) break;
    }
  }
}

/**
 * Makes `path` exist as a file of mode 0600, before SQLite opens it: SQLite gives the `-wal`,
 * `-shm` and `-journal` files it makes the mode of the database file. Those already there, left
 * by an older version, are narrowed too.
 */
export function privateDatabaseFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}
