import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Problem } from '../errors/problem.ts';
import type { MirroredSource, Sheet, SheetSettings } from '../model/sheet.ts';
import { TabWatcher, type WatchDeps } from './tab-watcher.ts';

function tab(id: string, document: string, settings: Partial<SheetSettings> = {}): Sheet {
  return {
    id,
    name: id,
    columns: ['a'],
    rowCount: 1,
    source: { provider: 'fake', document, tab: id },
    settings: { deleteEnabled: true, ...settings },
    createdAt: '',
    updatedAt: '',
    version: 1,
  };
}

/** A watcher over fakes that record what it asks; every check is due at every tick. */
function watcherOf(sheets: Sheet[], overrides: Partial<WatchDeps> = {}) {
  const asked = { probes: [] as string[], refreshes: [] as string[], rateLimited: 0 };
  let readsLeft = Number.POSITIVE_INFINITY;
  const deps: WatchDeps = {
    list: async () => sheets,
    webhookSheets: async () => [],
    listenedSheets: () => [],
    refresh: async (id) => {
      asked.refreshes.push(id);
      readsLeft--;
      return sheets.find((sheet) => sheet.id === id) as Sheet;
    },
    notify: () => {},
    hold: async (ids) => ids,
    documentOf: (sheet) => String((sheet.source as MirroredSource)['document']),
    probe: async (document) => {
      asked.probes.push(document);
      return 'v1';
    },
    budget: {
      mayWatchRead: () => readsLeft > 0,
      takeProbe: () => true,
      rateLimited: () => asked.rateLimited++,
    },
    ...overrides,
  };
  const watcher = new TabWatcher(deps, { intervalMs: 0, minReadGapMs: 0, tickMs: 1000 });
  return { watcher, asked, setReadsLeft: (n: number) => (readsLeft = n) };
}

test('two tabs of one spreadsheet share one probe, and are read only while its version is new', async () => {
  const { watcher, asked } = watcherOf([
    tab('a', 'book', { watch: true }),
    tab('b', 'book', { watch: true }),
  ]);
  await watcher.tick();
  assert.deepEqual(asked.probes, ['book']);
  assert.deepEqual(asked.refreshes, ['a', 'b']);
  await watcher.tick();
  assert.deepEqual(asked.probes, ['book', 'book']);
  assert.deepEqual(asked.refreshes, ['a', 'b'], 'the same version: no read');
});

test('tabs are watched for a webhook or a keyed stream, unless their setting says never', async () => {
  const { watcher, asked } = watcherOf(
    [
      tab('hooked', 'one'),
      tab('listened', 'two'),
      tab('quiet', 'three'),
      tab('never', 'four', { watch: false }),
    ],
    { webhookSheets: async () => ['hooked', 'never'], listenedSheets: () => ['listened'] },
  );
  await watcher.tick();
  assert.deepEqual(asked.refreshes, ['hooked', 'listened']);
});

test('a read over budget is put off to the next tick, not dropped: the interval stretches', async () => {
  const { watcher, asked, setReadsLeft } = watcherOf([
    tab('a', 'one', { watch: true }),
    tab('b', 'two', { watch: true }),
  ]);
  setReadsLeft(1);
  await watcher.tick();
  assert.deepEqual(asked.refreshes, ['a']);
  setReadsLeft(1);
  await watcher.tick();
  assert.deepEqual(asked.refreshes, ['a', 'b']);
});

test('a 429 from a read pauses watching through the budget', async () => {
  const { watcher, asked } = watcherOf([tab('a', 'one', { watch: true })], {
    refresh: async () => {
      throw new Problem('provider-rate-limited', 'The provider said 429.');
    },
  });
  await watcher.tick();
  assert.equal(asked.rateLimited, 1);
});

test('tabs another server holds are neither probed nor read', async () => {
  const { watcher, asked } = watcherOf([tab('a', 'one', { watch: true })], {
    hold: async () => [],
  });
  await watcher.tick();
  assert.deepEqual([asked.probes, asked.refreshes], [[], []]);
});

test('a tab that must be read is not probed while the budget has no read for it', async () => {
  const { watcher, asked, setReadsLeft } = watcherOf([tab('a', 'one', { watch: true })]);
  setReadsLeft(0);
  await watcher.tick();
  await watcher.tick();
  assert.deepEqual([asked.probes, asked.refreshes], [[], []]);
});
