import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { seededRandom } from '../../test/helpers/seeded-random.ts';

/**
 * The benchmark's data: people rows drawn from a seeded generator, so that every server gets the
 * very same rows and every run the very same files. Cells are numbers or plain text (no values
 * that CSV typing could read differently from JSON), so Sheetport and json-server serve equal data.
 */
export const columns = ['id', 'name', 'email', 'age', 'city', 'active'] as const;

export type Person = { [C in (typeof columns)[number]]: C extends 'id' | 'age' ? number : string };

const firstNames = [
  'Ada', 'Alan', 'Amara', 'Bjarne', 'Barbara', 'Chen', 'Claude', 'Dana', 'Edsger', 'Emeka',
  'Fatima', 'Frances', 'Grace', 'Guido', 'Hedy', 'Ingrid', 'Ivan', 'Joan', 'John', 'Ken',
  'Katherine', 'Linus', 'Leslie', 'Margaret', 'Mei', 'Niklaus', 'Noor', 'Olga', 'Pedro', 'Radia',
  'Rasmus', 'Sophie', 'Tim', 'Tomás', 'Uma', 'Vint', 'Wen', 'Xavier', 'Yukihiro', 'Zoe',
]; // prettier-ignore
const lastNames = [
  'Adams', 'Backus', 'Cerf', 'Dijkstra', 'Eich', 'Floyd', 'Goldberg', 'Hopper', 'Iverson', 'Jones',
  'Kay', 'Lamport', 'Liskov', 'McCarthy', 'Nakamura', 'Okafor', 'Perlman', 'Quinn', 'Ritchie', 'Stroustrup',
  'Thompson', 'Torvalds', 'Ullman', 'Van Rossum', 'Wirth', 'Wing', 'Xu', 'Yamada', 'Zuse', 'Hamilton',
  'Lovelace', 'Turing', 'Knuth', 'Shannon', 'Hoare', 'Milner', 'Pike', 'Allen', 'Tarjan', 'Codd',
]; // prettier-ignore
const cities = [
  'Lagos', 'Lisbon', 'London', 'Lyon', 'Madrid', 'Melbourne', 'Mumbai', 'Nairobi', 'Osaka', 'Oslo',
  'Paris', 'Porto', 'Prague', 'Quito', 'Rome', 'Santiago', 'Seoul', 'Sydney', 'Taipei', 'Tokyo',
  'Toronto', 'Utrecht', 'Valencia', 'Vienna', 'Warsaw', 'Zagreb', 'Zurich', 'Berlin', 'Cairo', 'Delhi',
]; // prettier-ignore
const initials = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
/** The ages the generator draws from: 18 to 87. */
export const ages = { min: 18, max: 87 } as const;

/** The generator every case draws its data from, by seed. */
export const random = seededRandom;

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)] as T;
}

/**
 * `count` people; 40 x 26 x 40 = 41,600 possible names, so a name matches a few rows of a
 * 100,000-row sheet.
 */
export function* people(count: number, seed: number): Generator<Person> {
  const next = random(seed);
  for (let id = 1; id <= count; id++) {
    const first = pick(next, firstNames);
    const last = pick(next, lastNames);
    yield {
      id,
      name: `${first} ${pick(next, initials)}. ${last}`,
      email: `${first}.${last}.${id}@example.com`.toLowerCase().replace(/ /g, ''),
      age: ages.min + Math.floor(next() * (ages.max - ages.min + 1)),
      city: pick(next, cities),
      active: next() < 0.7 ? 'yes' : 'no',
    };
  }
}

/** The encodings a CSV file of the benchmark can be written in, as Excel writes them. */
export const csvEncodings = ['utf-8', 'windows-1252', 'utf-16le'] as const;
export type CsvEncoding = (typeof csvEncodings)[number];

/**
 * Bytes of a piece of text. Every character of the benchmark's data is in Latin-1 (`Tomás`),
 * where Windows-1252 agrees with Latin-1; UTF-16 files start with their byte-order mark.
 */
function encoded(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (encoding === 'utf-16le') return Buffer.from(text, 'utf16le');
  // Latin-1 writes U+0080 to U+009F as bytes Windows-1252 reads as other characters.
  if (/[\u0080-\u009f\u0100-\uffff]/.test(text)) {
    throw new Error('benchmark text outside Windows-1252 as Latin-1 writes it');
  }
  return Buffer.from(text, 'latin1');
}

/** Writes text produced piece by piece, waiting whenever the disk falls behind. */
async function writeStreamed(
  path: string,
  pieces: Iterable<string>,
  encoding: CsvEncoding = 'utf-8',
): Promise<void> {
  const out = createWriteStream(path);
  if (encoding === 'utf-16le') out.write(Buffer.from([0xff, 0xfe]));
  let buffer = '';
  for (const piece of pieces) {
    buffer += piece;
    if (buffer.length < 1 << 16) continue;
    if (!out.write(encoded(buffer, encoding))) await once(out, 'drain');
    buffer = '';
  }
  out.end(encoded(buffer, encoding));
  await once(out, 'finish');
}

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function* csvLines(rows: Iterable<Person>): Generator<string> {
  yield `${columns.join(',')}\n`;
  for (const row of rows) yield `${columns.map((column) => csvField(row[column])).join(',')}\n`;
}

/** A CSV file of `count` people, streamed to disk: a million rows never sit in memory. */
export function writeCsv(
  path: string,
  count: number,
  seed: number,
  encoding: CsvEncoding = 'utf-8',
): Promise<void> {
  return writeStreamed(path, csvLines(people(count, seed)), encoding);
}

function* jsonServerLines(collection: string, rows: Iterable<Person>): Generator<string> {
  yield `{${JSON.stringify(collection)}: [\n`;
  let first = true;
  for (const row of rows) {
    yield `${first ? '' : ',\n'}${JSON.stringify(row)}`;
    first = false;
  }
  yield '\n]}\n';
}

/** A json-server database holding one collection of `count` people. */
export function writeJsonServerDb(
  path: string,
  collection: string,
  count: number,
  seed: number,
): Promise<void> {
  return writeStreamed(path, jsonServerLines(collection, people(count, seed)));
}

/**
 * Names to filter on: the names of about `wanted` rows spread over the sheet, so each one matches
 * at least one row and no single cached answer serves them all.
 */
export function filterNames(count: number, seed: number, wanted: number): string[] {
  const stride = Math.max(1, Math.floor(count / wanted));
  const names = new Set<string>();
  for (const row of people(count, seed)) {
    if ((row.id - 1) % stride === 0) names.add(row.name);
  }
  return [...names];
}

/** The rows that carry `name`: what a filter on that name answers. */
export function rowsNamed(count: number, seed: number, name: string): Person[] {
  return rowsWhere(count, seed, (row) => row.name === name);
}

/** The rows for which `matches` holds, in sheet order. */
export function rowsWhere(
  count: number,
  seed: number,
  matches: (row: Person) => boolean,
): Person[] {
  const rows: Person[] = [];
  for (const row of people(count, seed)) if (matches(row)) rows.push(row);
  return rows;
}

/** The first two letters of every first name, each once: prefixes that every name starts with. */
export function namePrefixes(): string[] {
  return [...new Set(firstNames.map((name) => name.slice(0, 2)))];
}
