import type { Sheet } from '../model/sheet.ts';
import type { ProviderTable, SheetProvider, TabCheck } from '../providers/provider.ts';
import { rowsAsText } from '../files/text-columns.ts';

/**
 * A sheet's provider as its mirror reads through it: the cells of the sheet's text columns come
 * as text, as the spreadsheet shows them (its formatted value, where the provider gives one), so
 * the copy, and every write planned on a read of the
 * tab, sees them as the sheet declares them. A sheet without text columns reads as it is.
 */
export function readingTextColumns(provider: SheetProvider, sheet: Sheet): SheetProvider {
  const declared = sheet.settings.textColumns ?? [];
  if (declared.length === 0) return provider;
  const asText = (table: ProviderTable): ProviderTable => ({
    ...table,
    rows: rowsAsText(
      table.rows.map((row) => [...row]),
      table.columns.map((column) => declared.includes(column)),
      table.shown,
    ),
  });
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'read') {
        return async (...args: Parameters<SheetProvider['read']>) =>
          asText(await target.read(...args));
      }
      if (property === 'changedSince') {
        return async (...args: Parameters<SheetProvider['changedSince']>): Promise<TabCheck> => {
          const check = await target.changedSince(...args);
          return check.changed ? { ...check, table: asText(check.table) } : check;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
