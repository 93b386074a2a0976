import { listSheets } from '../api/admin-api.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { ScreenTitle } from '../components/screen-title.tsx';
import { useResource } from '../hooks/use-resource.ts';
import { hrefFor } from '../lib/routes.ts';
import { accessLabels, sourceLabel, timeLabel } from '../lib/sheet-labels.ts';

/**
 * Every sheet on the server, newest change first, with the way to make another. Each shows its
 * id, where its rows come from and who may use them: two sheets of one name are told apart.
 */
export function SheetList() {
  const sheets = useResource(() => listSheets(), 'sheets');
  const sorted = [...(sheets.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return (
    <section>
      <div class="title-row">
        <ScreenTitle title="Sheets" />
        <a class="button" href={hrefFor({ screen: 'new-sheet', kind: 'scratch' })}>
          New sheet
        </a>
      </div>
      <ProblemMessage problem={sheets.problem} />
      {sheets.loading && sheets.data === undefined && <p role="status">Loading sheets…</p>}
      {sheets.data !== undefined && sorted.length === 0 && (
        <p class="empty">
          No sheets yet. <a href={hrefFor({ screen: 'new-sheet', kind: 'scratch' })}>Create one</a>,{' '}
          <a href={hrefFor({ screen: 'new-sheet', kind: 'upload' })}>upload a file</a> or{' '}
          <a href={hrefFor({ screen: 'new-sheet', kind: 'google' })}>
            connect a Google spreadsheet
          </a>
          .
        </p>
      )}
      {sorted.length > 0 && (
        <table class="sheet-list">
          <caption class="visually-hidden">Sheets on this server</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Source</th>
              <th scope="col">Access</th>
              <th scope="col" class="number">
                Columns
              </th>
              <th scope="col" class="number">
                Rows
              </th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((sheet) => (
              <tr key={sheet.id}>
                <th scope="row" data-label="Name">
                  <a href={hrefFor({ screen: 'sheet', sheetId: sheet.id })}>{sheet.name}</a>
                </th>
                <td data-label="Id">
                  <code>{sheet.id}</code>
                </td>
                <td data-label="Source">
                  {sourceLabel(sheet.source)}
                  {sheet.tabGone !== undefined && ' (tab gone)'}
                </td>
                <td data-label="Access">{accessLabels[sheet.settings.access ?? 'open'].name}</td>
                <td data-label="Columns" class="number">
                  {sheet.columns.length}
                </td>
                <td data-label="Rows" class="number">
                  {sheet.rowCount}
                </td>
                <td data-label="Last change">
                  <time dateTime={sheet.updatedAt}>{timeLabel(sheet.updatedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
