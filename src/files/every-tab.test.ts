import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheet } from '../model/sheet.ts';
import type { NewSheet } from '../store/store.ts';
import { createEach, readEveryTab } from './every-tab.ts';
import { columnsFromHeader } from './header.ts';

test('every tab is read; a tab without a usable header is skipped with the reason', () => {
  const tabs: Record<string, Cell[]> = { People: ['name'], Empty: [], Notes: ['a', 'a'] };
  const result = readEveryTab(Object.keys(tabs), (tab) => columnsFromHeader(tabs[tab] ?? []));
  assert.deepEqual(result.read, [{ tab: 'People', table: ['name'] }]);
  assert.deepEqual(result.skipped, [
    {
      tab: 'Empty',
      reason: 'The header row is not usable: A1 is empty: the first row must name the columns.',
    },
    {
      tab: 'Notes',
      reason: 'The header row is not usable: B1 repeats "a", already the name of A1.',
    },
  ]);
});

test('any other failure of a tab fails them all, and no usable tab at all is refused', () => {
  assert.throws(
    () =>
      readEveryTab(['a', 'b'], (tab) => {
        if (tab === 'b') throw new Problem('invalid-upload', 'broken');
        return tab;
      }),
    { code: 'invalid-upload' },
  );
  assert.throws(
    () => readEveryTab(['Empty'], () => columnsFromHeader([])),
    (error: unknown) => {
      assert.ok(error instanceof Problem && error.code === 'invalid-header');
      assert.match(error.detail, /^No tab has a usable header row\. "Empty": /);
      assert.deepEqual((error.extensions.skipped as { tab: string }[])[0]?.tab, 'Empty');
      return true;
    },
  );
});

test('sheets made from tabs are all kept, or none: one failing removes those made before it', async () => {
  const made: string[] = [];
  const removed: string[] = [];
  const store = {
    async createSheet(draft: NewSheet, rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>) {
      for await (const chunk of rows) assert.ok(chunk.length > 0);
      made.push(draft.id);
      return { id: draft.id } as Sheet;
    },
    async deleteSheet(id: string) {
      removed.push(id);
      return true;
    },
  };
  const draft = (id: string): NewSheet => ({
    id,
    name: id,
    columns: ['a'],
    source: { provider: 'scratch' },
    settings: { deleteEnabled: true },
  });
  async function* failing(): AsyncGenerator<Cell[][]> {
    yield [['x']];
    throw new Problem('limit-exceeded', 'too long');
  }
  const sheets = await createEach(store, [
    { draft: draft('one'), rows: [[['x']]] },
    { draft: draft('two'), rows: [[['y']]] },
  ]);
  assert.deepEqual(
    sheets.map((sheet) => sheet.id),
    ['one', 'two'],
  );
  made.length = 0;
  await assert.rejects(
    createEach(store, [
      { draft: draft('three'), rows: [[['x']]] },
      { draft: draft('four'), rows: failing() },
      { draft: draft('five'), rows: [[['z']]] },
    ]),
    { code: 'limit-exceeded' },
  );
  assert.deepEqual(made, ['three']);
  assert.deepEqual(removed, ['three']);
});
