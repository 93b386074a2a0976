import { useState } from 'preact/hooks';
import { createSheet } from '../api/admin-api.ts';
import { NameInUse } from '../components/name-in-use.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';

/** `name, email, age` → the column names, blanks kept so the API can say which one is empty. */
const columnList = (text: string) => text.split(',').map((name) => name.trim());

/** A column letter of the header row (`C1`) → the name typed for it, to point at the mistake. */
function typedName(columns: string[], cell: string): string {
  const letters = /^([A-Z]+)1$/.exec(cell)?.[1];
  if (letters === undefined) return '';
  const index = [...letters].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  const name = columns[index];
  return name === undefined ? '' : name === '' ? `(column ${index + 1}, blank)` : `("${name}")`;
}

export function ScratchForm({ onCreated }: { onCreated: (sheetId: string) => void }) {
  const [name, setName] = useState('');
  const [columns, setColumns] = useState('');
  const action = useAction();
  return (
    <form
      class="stack"
      aria-labelledby="scratch-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => onCreated((await createSheet(name, columnList(columns))).id));
      }}
    >
      <h2 id="scratch-heading">Create an empty sheet</h2>
      <div class="field">
        <label for="scratch-name">Name</label>
        <input
          id="scratch-name"
          required
          maxLength={200}
          value={name}
          aria-describedby="scratch-name-in-use"
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <NameInUse name={name} id="scratch-name-in-use" />
      </div>
      <div class="field">
        <label for="scratch-columns">Columns</label>
        <p class="hint" id="scratch-columns-hint">
          Column names separated by commas, in order, for example <code>name, email, age</code>.
        </p>
        <input
          id="scratch-columns"
          required
          value={columns}
          aria-describedby="scratch-columns-hint"
          onInput={(event) => setColumns(event.currentTarget.value)}
        />
      </div>
      <ProblemMessage
        problem={action.problem}
        describeCell={(cell) => typedName(columnList(columns), cell)}
      />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Creating…' : 'Create sheet'}
      </button>
    </form>
  );
}
