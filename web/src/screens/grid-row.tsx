import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '../api/client.ts';
import { deleteRow, patchRow } from '../api/rows-api.ts';
import type { Ref } from 'preact';
import type { Row, Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { cellText, changedCells } from '../lib/cell-input.ts';

interface Props {
  sheet: Sheet;
  row: Row;
  /** The row's `_id`; null when the grid does not know it (filtered or sorted). */
  position: number | null;
  /** The ETag of the read that showed the row, sent as If-Match with every write. */
  etag: string | null;
  onWritten: (message: string) => void;
  /** A write refused with 412: the sheet changed since the row was read. */
  onStale: () => void;
}

/** One row of the grid: shown, edited in place (Enter saves, Escape cancels), or deleted. */
export function GridRow({ sheet, row, position, etag, onWritten, onStale }: Props) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const action = useAction();
  const columns = sheet.columns;
  const focusTarget = useRef<HTMLElement>(null);
  const opened = useRef(false);

  // Focus follows the row's mode: into the first cell, onto the confirmation, back to Edit.
  useLayoutEffect(() => {
    if (mode !== 'view' || opened.current) focusTarget.current?.focus();
    opened.current = mode !== 'view';
  }, [mode]);

  const edit = () => {
    setTexts(Object.fromEntries(columns.map((column) => [column, cellText(row[column])])));
    action.clear();
    setMode('edit');
  };
  const save = (at: number) => {
    const cells = changedCells(row, texts);
    if (Object.keys(cells).length === 0) {
      setMode('view');
      return;
    }
    void action.run(() =>
      unlessStale(async () => {
        await patchRow(sheet.id, at, cells, etag);
        onWritten(`Row ${at} saved.`);
      }),
    );
  };
  const remove = (at: number) =>
    void action.run(() =>
      unlessStale(async () => {
        await deleteRow(sheet.id, at, etag);
        onWritten(`Row ${at} deleted.`);
      }),
    );
  /** A 412 is not this row's problem to show: the grid reads the rows again and says why. */
  const unlessStale = async (write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'precondition-failed') {
        setMode('view');
        onStale();
        return;
      }
      throw error;
    }
  };

  return (
    <>
      <tr class={mode === 'view' ? undefined : 'active'}>
        {position !== null && <th scope="row">{position}</th>}
        {columns.map((column, i) =>
          mode === 'edit' && position !== null ? (
            <td key={column}>
              <input
                aria-label={`${column}, row ${position}`}
                value={texts[column] ?? ''}
                ref={i === 0 ? (focusTarget as Ref<HTMLInputElement>) : undefined}
                onInput={(event) => setTexts({ ...texts, [column]: event.currentTarget.value })}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') save(position);
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
        {position !== null && (
          <td class="actions">
            {mode === 'view' && (
              <>
                <button
                  type="button"
                  class="secondary small"
                  ref={focusTarget as Ref<HTMLButtonElement>}
                  onClick={edit}
                  aria-label={`Edit row ${position}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Delete row ${position}`}
                  onClick={() => {
                    action.clear();
                    setMode('confirm-delete');
                  }}
                >
                  Delete
                </button>
              </>
            )}
            {mode === 'edit' && (
              <>
                <button
                  type="button"
                  class="small"
                  disabled={action.busy}
                  onClick={() => save(position)}
                >
                  Save
                </button>
                <button type="button" class="secondary small" onClick={() => setMode('view')}>
                  Cancel
                </button>
              </>
            )}
            {mode === 'confirm-delete' && (
              <>
                <span class="confirm">Delete row {position}?</span>
                <button
                  type="button"
                  class="danger small"
                  ref={focusTarget as Ref<HTMLButtonElement>}
                  disabled={action.busy}
                  onClick={() => remove(position)}
                >
                  Yes, delete
                </button>
                <button type="button" class="secondary small" onClick={() => setMode('view')}>
                  Keep
                </button>
              </>
            )}
          </td>
        )}
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
