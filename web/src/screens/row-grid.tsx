import { useRef, useState } from 'preact/hooks';
import { hasRowKeys, readRows } from '../api/rows-api.ts';
import type { Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useResource } from '../hooks/use-resource.ts';
import { useSheetEvents } from '../hooks/use-sheet-events.ts';
import { nextSort, rowQueryString, type Filter, type SortKey } from '../lib/filter-query.ts';
import { hrefFor } from '../lib/routes.ts';
import { AddRowForm } from './add-row-form.tsx';
import { Downloads } from './downloads.tsx';
import { FilterBar } from './filter-bar.tsx';
import { GridRow } from './grid-row.tsx';

interface Props {
  sheet: Sheet;
  filters: Filter[];
  sort: SortKey[];
  onQuery: (filters: Filter[], sort: SortKey[]) => void;
  /** After a row was added, changed or deleted, so the sheet's counts are read again. */
  onWrite: () => void;
}

const pageSizes = [25, 50, 100];

/**
 * A page of the sheet's rows, read through the row API with the filter bar's query. One row more
 * than the page is asked for, to know whether there is a next page. Rows are read with their
 * positions (`_with_id=true`), shown in the first column, and their keys (`_with_key=true`), by
 * which they are edited: a row keeps its key, and an edit in progress keeps its row, while rows
 * above it are added, deleted or moved by anyone else.
 */
export function RowGrid({ sheet, filters, sort, onQuery, onWrite }: Props) {
  const [pageSize, setPageSize] = useState(25);
  const [offset, setOffset] = useState(0);
  const [message, setMessage] = useState('');
  const region = useRef<HTMLDivElement>(null);
  const query = rowQueryString({ filters, sort, limit: pageSize + 1, offset });
  const withKeys = hasRowKeys(sheet.columns);
  const rows = useResource(() => readRows(sheet.id, query, withKeys), `${sheet.id}?${query}`);
  const shown = (rows.data?.rows ?? []).slice(0, pageSize);
  const hasNext = (rows.data?.rows.length ?? 0) > pageSize;
  // Rows changed by anyone, a person in Google included, show up without a click.
  useSheetEvents(sheet.id, () => {
    rows.reload();
    onWrite();
  });

  const requery = (nextFilters: Filter[], nextSortKeys: SortKey[]) => {
    setOffset(0);
    setMessage('');
    onQuery(nextFilters, nextSortKeys);
  };
  const written = (text: string) => {
    setMessage(text);
    rows.reload();
    onWrite();
    region.current?.focus();
  };
  const stale = (text: string) => written(`Nothing was changed: ${text}`);

  return (
    <section class="panel" aria-labelledby="rows-heading">
      <h2 id="rows-heading">Rows</h2>
      <FilterBar
        columns={sheet.columns}
        filters={filters}
        sort={sort}
        onApply={(next) => requery(next, sort)}
      />
      <ProblemMessage problem={rows.problem} />
      {!sheet.settings.deleteEnabled && (
        <p class="notice">
          DELETE is switched off for this sheet, so the API refuses to delete rows.{' '}
          <a href={hrefFor({ screen: 'settings', sheetId: sheet.id })}>Settings</a>
        </p>
      )}
      <p role="status" class="status">
        {message}
      </p>
      <div
        class="grid-scroll"
        role="region"
        aria-labelledby="rows-heading"
        tabIndex={0}
        ref={region}
      >
        <table class="grid" aria-busy={rows.loading}>
          <thead>
            <tr>
              <th scope="col">_id</th>
              {sheet.columns.map((column) => {
                const key = sort.find((candidate) => candidate.column === column);
                const direction =
                  key === undefined ? undefined : key.descending ? 'descending' : 'ascending';
                return (
                  <th scope="col" key={column} aria-sort={direction}>
                    <button
                      type="button"
                      class="sort"
                      onClick={() => requery(filters, nextSort(sort, column))}
                    >
                      {column}
                      <span aria-hidden="true">
                        {direction === 'ascending' ? ' ▲' : direction === 'descending' ? ' ▼' : ''}
                      </span>
                    </button>
                  </th>
                );
              })}
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map(({ position, key, row }) => (
              <GridRow
                key={key ?? `${position}:${JSON.stringify(row)}`}
                sheet={sheet}
                row={row}
                position={position}
                rowKey={key}
                etag={rows.data?.etag ?? null}
                onWritten={written}
                onStale={stale}
              />
            ))}
          </tbody>
        </table>
      </div>
      {rows.data !== undefined && shown.length === 0 && (
        <p class="empty">
          {filters.length > 0 ? 'No row matches these filters.' : 'No rows on this page.'}
        </p>
      )}
      <div class="pager">
        <label>
          Rows per page{' '}
          <select
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.currentTarget.value));
              setOffset(0);
            }}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <span>
          {shown.length === 0 ? 'No rows' : `Rows ${offset + 1}–${offset + shown.length}`}
          {filters.length === 0 && ` of ${sheet.rowCount}`}
        </span>
        <button
          type="button"
          class="secondary"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - pageSize))}
        >
          Previous page
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!hasNext}
          onClick={() => setOffset(offset + pageSize)}
        >
          Next page
        </button>
      </div>
      <Downloads sheet={sheet} query={rowQueryString({ filters, sort })} />
      <AddRowForm sheet={sheet} onAdded={written} />
    </section>
  );
}
