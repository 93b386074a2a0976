import { setTimeout as sleep } from 'node:timers/promises';
import { random } from './data.ts';
import type { EmulatorCell, GoogleSheetsEmulator } from '../../test/google-emulator/index.ts';

/**
 * Case k's person: edits the tab while the writers write, as someone at the spreadsheet does.
 * Every half second, one of: insert a row of their own (id `p-<n>`) at a random place, delete
 * one of their own rows, or move any row to another place. They never delete the API's rows, so
 * every row the API acknowledged must still be there, once, with the cells it was given.
 */

export interface PersonEdits {
  inserted: number;
  deleted: number;
  moved: number;
}

export const personRow = (id: unknown) => String(id).startsWith('p-');

export async function playPerson(
  emulator: GoogleSheetsEmulator,
  spreadsheetId: string,
  tab: string,
  stopAt: number,
  seed: number,
): Promise<PersonEdits> {
  // Seeded, so a run's edits can be replayed.
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const edits: PersonEdits = { inserted: 0, deleted: 0, moved: 0 };
  while (performance.now() < stopAt) {
    await sleep(500);
    const rows = emulator.rows(spreadsheetId, tab);
    // Positions 1.. are rows under the header; `rows.length` is just past the last one.
    const mine = rows.map((row, i) => (i > 0 && personRow(row[0]) ? i : -1)).filter((i) => i > 0);
    const choice = pick(3);
    if (choice === 0 || (choice === 1 && mine.length === 0)) {
      const row: EmulatorCell[] = [`p-${edits.inserted}`, null, null, null, 'person'];
      emulator.insertRows(spreadsheetId, tab, 1 + pick(rows.length), [row]);
      edits.inserted++;
    } else if (choice === 1) {
      emulator.deleteRows(spreadsheetId, tab, mine[pick(mine.length)] ?? 1);
      edits.deleted++;
    } else if (rows.length > 2) {
      emulator.moveRow(spreadsheetId, tab, 1 + pick(rows.length - 1), 1 + pick(rows.length - 1));
      edits.moved++;
    }
  }
  return edits;
}
