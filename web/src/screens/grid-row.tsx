import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api/client.ts';
import { deleteRow, patchRow, readRow, type RowAddress } from '../api/rows-api.ts';
import type { Ref } from 'preact';
import type { Row, Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { RemoveConfirm } from '../components/remove-confirm.tsx';
import { useAction } from '../hooks/use-action.ts';
import { cellText, changedCells, rowLabel } from '../lib/cell-input.ts';

interface Props {
  sheet: Sheet;
  row: Row;
  /** The row's `_id` when it was read. */
  position: number;
  /** The row's key, by which it is written; null when the sheet has no keys (a `_key` column). */
  rowKey: string | null;
  /** The ETag of the read that showed the row: a write by position sends it as If-Match. */
  etag: string | null;
  onWritten: (message: string) => void;
  /** A write that changed nothing because the row changed or went: the grid reads again. */
  onStale: (message: string) => void;
}

/**
 * One row of the grid: shown, edited in place (Enter saves, Escape cancels), or deleted. A row
 * with a key is read again when an edit or a delete starts, so the boxes hold its cells as they
 * are now, and the write carries that read's ETag: it is refused only if this row changes in
 * the meantime, wherever it has moved.
 */
export function GridRow({ sheet, row, position, rowKey, etag, onWritten, onStale }: Props) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [texts, setTexts] = useState<Record<string, string>>({});
  /** The row as the edit or delete started from it, and the ETag its write sends. */
  const [opened, setOpened] = useState<{ row: Row; etag: string | null }>({ row, etag });
  const action = useAction();
  const columns = sheet.columns;
  const focusTarget = useRef<HTMLElement>(null);
  const wasOpen = useRef(false);
  const at: RowAddress = rowKey === null ? { position } : { key: rowKey };

  // Focus follows the row's mode: into the first cell, onto the confirmation, back to Edit.
  useLayoutEffect(() => {
    if (mode !== 'view' || wasOpen.current) focusTarget.current?.focus();
    wasOpen.current = mode !== 'view';
  }, [mode]);

  const open = (next: 'edit' | 'confirm-delete') =>
    void action.run(() =>
      unlessStale(async () => {
        const current = rowKey === null ? { row, etag } : await readRow(sheet.id, rowKey);
        setOpened(current);
        setTexts(
          Object.fromEntries(columns.map((column) => [column, cellText(current.row[column])])),
        );
        setMode(next);
      }),
    );
  const save = () => {
    const cells = changedCells(opened.row, texts);
    if (Object.keys(cells).length === 0) {
      setMode('view');
      return;
    }
    void action.run(() =>
      unlessStale(async () => {
        await patchRow(sheet.id, at, cells, opened.etag);
        setMode('view');
        onWritten(`Saved the row ${rowLabel(columns, { ...opened.row, ...cells })}.`);
      }),
    );
  };
  const remove = () =>
    void action.run(() =>
      unlessStale(async () => {
        await deleteRow(sheet.id, at, opened.etag);
        setMode('view');
        onWritten(`Deleted the row ${rowLabel(columns, opened.row)}.`);
      }),
    );
  /** A row changed or gone is not this row's problem to show: the grid reads again and says why. */
  const unlessStale = async (write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      const code = error instanceof ApiProblem ? error.code : undefined;
      const label = rowLabel(columns, opened.row);
      if (code === 'precondition-failed') {
        setMode('view');
        onStale(
          rowKey === null
            ? 'the sheet changed since these rows were read, so row numbers may have moved. The rows have been read again; make your change again.'
            : `someone changed the row ${label} since you opened it. The rows have been read again; make your change again.`,
        );
        return;
      }
      if (code === 'row-not-found' && rowKey !== null) {
        setMode('view');
        onStale(`the row ${rowLabel(columns, row)} was deleted by someone else.`);
        return;
      }
      throw error;
    }
  };

  return (
    <>
      <tr class={mode === 'view' ? undefined : 'active'}>
        <th scope="row">{position}</th>
        {columns.map((column, i) =>
          mode === 'edit' ? (
            <td key={column}>
              <input
                aria-label={`${column}, row ${position}`}
                value={texts[column] ?? ''}
                ref={i === 0 ? (focusTarget as Ref<HTMLInputElement>) : undefined}
                onInput={(event) => setTexts({ ...texts, [column]: event.currentTarget.value })}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') save();
                  if (event.key === 'Escape') setMode('view');
                }}
              />
            </td>
          ) : (
            <td key={column} class={typeof row[column] === 'number' ? 'number' : undefined}>
              {cellText(row[column])}
            </td>
          ),
        )}
        <td class="actions">
          {mode === 'view' && (
            <>
              <button
                type="button"
                class="secondary small"
                ref={focusTarget as Ref<HTMLButtonElement>}
                disabled={action.busy}
                onClick={() => open('edit')}
                aria-label={`Edit row ${position}`}
              >
                Edit
              </button>
              <button
                type="button"
                class="secondary small"
                aria-label={`Delete row ${position}`}
                disabled={action.busy}
                onClick={() => open('confirm-delete')}
              >
                Delete
              </button>
            </>
          )}
          {mode === 'edit' && (
            <>
              <button type="button" class="small" disabled={action.busy} onClick={save}>
                Save
              </button>
              <button type="button" class="secondary small" onClick={() => setMode('view')}>
                Cancel
              </button>
            </>
          )}
          {mode === 'confirm-delete' && (
            <RemoveConfirm
              question={`Delete the row ${rowLabel(columns, opened.row)}?`}
              yes="Yes, delete"
              yesRef={focusTarget as Ref<HTMLButtonElement>}
              busy={action.busy}
              onKeep={() => setMode('view')}
              onYes={remove}
            />
          )}
        </td>
      </tr>
      {action.problem !== null && (
        <tr class="problem-row">
          <td colSpan={columns.length + 2}>
            <ProblemMessage problem={action.problem} />
          </td>
        </tr>
      )}
    </>
  );
}
