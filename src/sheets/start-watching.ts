import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';
import type { DriveVersionProbe } from '../providers/google/drive-version.ts';
import {
  defaultBudgetSettings,
  RequestBudget,
  type BudgetSettings,
} from '../providers/google/request-budget.ts';
import type { SheetStore } from '../store/store.ts';
import type { Sheets } from './sheets.ts';
import { defaultWatchSettings, TabWatcher, type WatchSettings } from './tab-watcher.ts';

export interface WatchOptions extends Partial<WatchSettings> {
  budget?: Partial<BudgetSettings>;
}

/**
 * Starts watching the Google tabs someone listens to (see tab-watcher.ts), when this server has
 * Google access: with one request budget for the identity, fed by every request its provider
 * sends, and a lease per tab in the store, so that one server of many watches each tab.
 */
export function startWatching(
  app: FastifyInstance,
  deps: {
    sheets: Sheets;
    store: SheetStore;
    probe: DriveVersionProbe | undefined;
    metrics: Metrics | null;
  },
  options: WatchOptions,
): TabWatcher | null {
  const google = deps.sheets.providers.google;
  if (google === undefined) return null;
  const budget = new RequestBudget({ ...defaultBudgetSettings, ...options.budget });
  // Counted beside the metrics, which set the provider's listener first.
  const report = google.onUpstream;
  google.onUpstream = (event) => {
    report?.(event);
    budget.observe(event);
  };
  const owner = randomUUID();
  const watcher = new TabWatcher(
    {
      list: () => deps.sheets.list(),
      webhookSheets: () => deps.store.webhookSheets(),
      listenedSheets: () => deps.sheets.events.listenedSheets(),
      refresh: (sheetId) => deps.sheets.refresh(sheetId),
      notify: (sheetId) => deps.sheets.events.notify(sheetId),
      hold: (sheetIds, leaseMs) => deps.store.holdWatches(owner, sheetIds, leaseMs),
      probe: deps.probe ?? null,
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
  return watcher;
}
