import type { Cell } from '../cells/cell.ts';
import { newSheetId } from '../model/sheet-id.ts';
import type { Sheet } from '../model/sheet.ts';
import type { SheetStore } from '../store/store.ts';

const demoColumns = ['name', 'email', 'age', 'city', 'member'];
const demoRows: Cell[][] = [
  ['Ann', 'ann@example.com', 31, 'Lisbon', true],
  ['Bob', 'bob@example.com', 27, 'Oslo', false],
  ['Joan', 'joan@example.com', 45, 'Lisbon', true],
  ['John', 'john@example.com', 38, 'Nairobi', false],
  ['Mei', 'mei@example.com', 29, 'Taipei', true],
];

/**
 * Loads a small sheet the first time a store is used, so a new user has something to query.
 * It is created once: after it has been deleted, it does not come back.
 */
export async function seedDemoSheet(store: SheetStore): Promise<Sheet | null> {
  if (!(await store.claimFlag('demo-seeded'))) return null;
  const sheet = await store.createSheet(
    {
      id: newSheetId(),
      name: 'people',
      columns: demoColumns,
      source: { provider: 'scratch' },
      // The demo is for trying the API without set-up: anyone may read and write it.
      settings: { deleteEnabled: true, access: 'open' },
    },
    [demoRows],
  );
  return sheet;
}
