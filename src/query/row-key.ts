import { createHash } from 'node:crypto';
import { excerpt } from '../errors/excerpt.ts';
import { Problem } from '../errors/problem.ts';

/**
 * Row keys: a row's identity, which stays with it while rows above it come and go. A key is the
 * decimal text of the row's id in the store (`StoredRow.rid`), which a sheet never gives out
 * twice; the syntax clients may rely on is wider (1 to 64 of `[A-Za-z0-9_-]`), so that keys of
 * another form could come later without breaking a client that checks them.
 */
const keySyntax = /^[A-Za-z0-9_-]{1,64}$/;
/** Row ids as the stores keep them: non-negative 32-bit integers, written without leading 0. */
const ridText = /^(0|[1-9][0-9]{0,9})$/;
const maxRid = 2 ** 31 - 1;

/** Checks a key's syntax: a key that cannot exist is the client's mistake, not a missing row. */
export function parseKey(text: string, where: string): string {
  if (!keySyntax.test(text)) {
    throw new Problem(
      'invalid-key',
      `${where} must be a row key: 1 to 64 letters, digits, "_" or "-", as "_key" answers it (e.g. "17"); got "${excerpt(text)}".`,
      { key: excerpt(text) },
    );
  }
  return text;
}

/** `_key=k1,k2`: keys separated by commas, each once (a repeat chooses the same row). */
export function parseKeyList(value: string): string[] {
  return [...new Set(value.split(',').map((part) => parseKey(part, 'Each key of _key')))];
}

/** The row id a key names, or null when it names none (a key of a form the store never gave). */
export function ridOfKey(key: string): number | null {
  if (!ridText.test(key)) return null;
  const rid = Number(key);
  return rid <= maxRid ? rid : null;
}

export function keyOfRid(rid: number): string {
  return String(rid);
}

/** The 404 of keys that name no row of the sheet: nothing was read or written. */
export function keysNotFound(sheetName: string, keys: string[]): Problem {
  return new Problem(
    'row-not-found',
    `No row with key ${keys.map((key) => `"${excerpt(key)}"`).join(', ')} in sheet "${sheetName}": it was deleted, or never existed. Nothing was changed.`,
    { keys: keys.map((key) => excerpt(key)) },
  );
}

/**
 * A row's own ETag: strong, and different whenever the row's cells change (its stored JSON and
 * which cells are dates), and for every other row (its id is in it). A row moved by others'
 * inserts and deletes keeps it.
 */
export function rowEtag(rid: number, json: string, dates: string | null): string {
  const hash = createHash('sha256')
    .update(`${rid}\u0000${dates ?? ''}\u0000${json}`)
    .digest('base64url')
    .slice(0, 22);
  return `"k${rid}.${hash}"`;
}

/** The row id a row ETag names, or null for any other tag (a sheet's ETag, or a stranger). */
export function ridOfRowEtag(tag: string): number | null {
  const found = /^\s*"k(0|[1-9][0-9]{0,9})\.[A-Za-z0-9_-]{22}"\s*$/.exec(tag);
  return found === null ? null : Number(found[1]);
}

/** A row's JSON with its key in front (and its position before that, when asked). */
export function withKey(json: string, rid: number, pos: number | null = null): string {
  const head = `${pos === null ? '{' : `{"_id":${pos},`}"_key":"${rid}"`;
  return json === '{}' ? `${head}}` : `${head},${json.slice(1)}`;
}
