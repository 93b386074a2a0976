import { useRef } from 'preact/hooks';
import { removeSheet } from '../api/admin-api.ts';
import type { Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { navigate } from '../hooks/use-route.ts';
import { plural } from '../lib/sheet-labels.ts';

/** Removing the sheet, behind a modal confirmation that names it. */
export function RemoveSheet({ sheet }: { sheet: Sheet }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const action = useAction();
  const google = sheet.source.provider === 'google';
  return (
    <section class="panel danger-zone" aria-labelledby="remove-heading">
      <h2 id="remove-heading">Remove this sheet</h2>
      <p>
        Its rows, settings and keys go with it, and its endpoints stop answering.
        {google && ' The Google spreadsheet itself is left alone.'}
      </p>
      <button
        type="button"
        class="danger"
        onClick={() => {
          action.clear();
          dialog.current?.showModal();
        }}
      >
        Remove sheet…
      </button>
      <dialog ref={dialog} aria-labelledby="remove-dialog-heading">
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              await removeSheet(sheet.id);
              dialog.current?.close();
              navigate('#/');
            });
          }}
        >
          <h2 id="remove-dialog-heading">Remove “{sheet.name}”?</h2>
          <p>
            The sheet “{sheet.name}” and its {plural(sheet.rowCount, 'row')} are removed from
            Sheetport. This cannot be undone.
          </p>
          <ProblemMessage problem={action.problem} />
          <div class="dialog-actions">
            <button
              type="button"
              class="secondary"
              autoFocus
              onClick={() => dialog.current?.close()}
            >
              Cancel
            </button>
            <button type="submit" class="danger" disabled={action.busy}>
              Remove “{sheet.name}”
            </button>
          </div>
        </form>
      </dialog>
    </section>
  );
}
