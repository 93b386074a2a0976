import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { SheetStore } from '../store/store.ts';
import type { Sheets } from './sheets.ts';
import { defaultWatchSettings, TabWatcher, type WatchSettings } from './tab-watcher.ts';

export type WatchOptions = Partial<WatchSettings>;

/**
 * Starts watching the tabs someone listens to (see tab-watcher.ts), one watcher for each
 * configured provider that can be watched: with the provider's request budget, fed by every
 * request it sends, and a lease per tab in the store, so that one server of many watches each tab.
 */
export function startWatching(
  app: FastifyInstance,
  deps: {
    sheets: Sheets;
    providers: ProviderRegistry;
    store: SheetStore;
    metrics: Metrics | null;
  },
  options: WatchOptions,
): TabWatcher[] {
  return deps.providers.configured().flatMap(([name, provider]) => {
    const support = provider.watching?.();
    if (support === undefined) return [];
    const { budget, probe } = support;
    // Counted beside the metrics, which set the provider's listener first.
    const report = provider.onUpstream;
    provider.onUpstream = (event) => {
      report?.(event);
      budget.observe(event);
    };
    const owner = randomUUID();
    const watcher = new TabWatcher(
      {
        list: async () =>
          (await deps.sheets.list()).filter((sheet) => sheet.source.provider === name),
        documentOf: (sheet) => deps.providers.tabOf(sheet.source)?.document ?? '',
        webhookSheets: () => deps.store.webhookSheets(),
        listenedSheets: () => deps.sheets.events.listenedSheets(),
        refresh: (sheetId) => deps.sheets.refresh(sheetId),
        notify: (sheetId) => deps.sheets.events.notify(sheetId),
        hold: (sheetIds, leaseMs) => deps.store.holdWatches(owner, sheetIds, leaseMs),
        probe,
        budget,
      },
      { ...defaultWatchSettings, ...options },
      deps.metrics?.watch ?? null,
      (error) => app.log.warn({ err: error }, 'watch'),
    );
    watcher.start();
    app.addHook('onClose', async () => {
      await watcher.stop();
      // Another server may take the tabs over at once.
      await deps.store.holdWatches(owner, [], 0).catch(() => undefined);
    });
    return [watcher];
  });
}
