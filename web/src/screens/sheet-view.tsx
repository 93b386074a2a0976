import { useState } from 'preact/hooks';
import { getSheet } from '../api/admin-api.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { ScreenTitle } from '../components/screen-title.tsx';
import { useResource } from '../hooks/use-resource.ts';
import type { Filter, SortKey } from '../lib/filter-query.ts';
import { hrefFor } from '../lib/routes.ts';
import { plural, sourceLabel, timeLabel } from '../lib/sheet-labels.ts';
import { EndpointsPanel } from './endpoints-panel.tsx';
import { RowGrid } from './row-grid.tsx';
import { SummaryPanel } from './summary-panel.tsx';

/** One sheet: its facts, its endpoints with example requests, and its rows. */
export function SheetView({ sheetId }: { sheetId: string }) {
  const sheet = useResource(() => getSheet(sheetId), sheetId);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [sort, setSort] = useState<SortKey[]>([]);
  const current = sheet.data;
  return (
    <section>
      <div class="title-row">
        <ScreenTitle title={current?.name ?? 'Sheet'} />
        <a class="button secondary" href={hrefFor({ screen: 'settings', sheetId })}>
          Settings
        </a>
      </div>
      <ProblemMessage problem={sheet.problem} />
      {current === undefined ? (
        sheet.loading && <p role="status">Loading the sheet…</p>
      ) : (
        <>
          <p class="facts">
            <span>{sourceLabel(current.source)}</span>
            <span>{plural(current.columns.length, 'column')}</span>
            <span>{plural(current.rowCount, 'row')}</span>
            <span>
              changed <time dateTime={current.updatedAt}>{timeLabel(current.updatedAt)}</time>
            </span>
          </p>
          {current.tabGone !== undefined && (
            <p role="alert" class="notice">
              The tab this sheet mirrors is gone from its spreadsheet (found{' '}
              <time dateTime={current.tabGone}>{timeLabel(current.tabGone)}</time>). Reads serve the
              rows last read from it; writes are refused until it is back.
            </p>
          )}
          <EndpointsPanel sheet={current} filters={filters} sort={sort} />
          <RowGrid
            sheet={current}
            filters={filters}
            sort={sort}
            onQuery={(nextFilters, nextSort) => {
              setFilters(nextFilters);
              setSort(nextSort);
            }}
            onWrite={sheet.reload}
          />
          <SummaryPanel sheet={current} filters={filters} />
        </>
      )}
    </section>
  );
}
