import { useState } from 'preact/hooks';
import { appendRow } from '../api/rows-api.ts';
import type { Cell, Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { cellFromInput, rowLabel } from '../lib/cell-input.ts';

/** Appends one row with POST; columns left empty are empty cells. */
export function AddRowForm({
  sheet,
  onAdded,
}: {
  sheet: Sheet;
  onAdded: (message: string) => void;
}) {
  const [texts, setTexts] = useState<Record<string, string>>({});
  const action = useAction();
  return (
    <form
      class="add-row"
      aria-labelledby="add-row-heading"
      onSubmit={(event) => {
        event.preventDefault();
        const row: Record<string, Cell> = {};
        for (const [column, text] of Object.entries(texts)) {
          if (text !== '') row[column] = cellFromInput(text);
        }
        void action.run(async () => {
          await appendRow(sheet.id, row);
          setTexts({});
          onAdded(`Added the row ${rowLabel(sheet.columns, row)} at the end.`);
        });
      }}
    >
      <h3 id="add-row-heading">Add a row</h3>
      <p class="hint">
        Numbers, <code>true</code> and <code>false</code> are stored as such; an empty box is an
        empty cell.
      </p>
      <div class="add-row-fields">
        {sheet.columns.map((column, i) => (
          <div class="field" key={column}>
            <label for={`new-cell-${i}`}>{column}</label>
            <input
              id={`new-cell-${i}`}
              value={texts[column] ?? ''}
              onInput={(event) => setTexts({ ...texts, [column]: event.currentTarget.value })}
            />
          </div>
        ))}
      </div>
      <ProblemMessage problem={action.problem} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Adding…' : 'Add row'}
      </button>
    </form>
  );
}
