import { useState } from 'preact/hooks';
import { updateSheet } from '../api/admin-api.ts';
import { accessModes, type AccessMode, type Sheet, type SheetPatch } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction, type Action } from '../hooks/use-action.ts';
import { accessLabels } from '../lib/sheet-labels.ts';

/** The sheet's settings, one small form each, so a failure shows beside the one that failed. */

interface Props {
  sheet: Sheet;
  onSaved: (sheet: Sheet) => void;
}

interface Patch {
  action: Action;
  saved: boolean;
  save: (patch: SheetPatch) => void;
}

function usePatch({ sheet, onSaved }: Props): Patch {
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const save = (patch: SheetPatch) => {
    setSaved(false);
    void action.run(async () => {
      onSaved(await updateSheet(sheet.id, patch));
      setSaved(true);
    });
  };
  return { action, saved, save };
}

/** A form's submit handler that saves what `patch` builds, without a page load. */
const submitting = (save: () => void) => (event: Event) => {
  event.preventDefault();
  save();
};

function SaveRow({ patch, label, id }: { patch: Patch; label: string; id: string }) {
  return (
    <>
      <ProblemMessage problem={patch.action.problem} id={id} />
      <div class="save-row">
        <button type="submit" class="secondary" disabled={patch.action.busy}>
          {patch.action.busy ? 'Saving…' : label}
        </button>
        <span role="status">{patch.saved ? 'Saved.' : ''}</span>
      </div>
    </>
  );
}

export function NameForm(props: Props) {
  const [name, setName] = useState(props.sheet.name);
  const patch = usePatch(props);
  return (
    <form class="setting" onSubmit={submitting(() => patch.save({ name }))}>
      <label for="setting-name">Name</label>
      <input
        id="setting-name"
        required
        maxLength={200}
        value={name}
        aria-describedby="setting-name-problem"
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <SaveRow patch={patch} label="Save name" id="setting-name-problem" />
    </form>
  );
}

export function DeleteSwitch(props: Props) {
  const patch = usePatch(props);
  const on = props.sheet.settings.deleteEnabled;
  return (
    <div class="setting">
      <label class="switch">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={patch.action.busy}
          aria-describedby="setting-delete-hint setting-delete-problem"
          onChange={(event) => patch.save({ deleteEnabled: event.currentTarget.checked })}
        />
        <span>DELETE on the row API</span>
      </label>
      <p class="hint" id="setting-delete-hint">
        {on
          ? 'On: DELETE requests remove rows.'
          : 'Off: DELETE requests are refused with 405 and remove nothing.'}
      </p>
      <ProblemMessage problem={patch.action.problem} id="setting-delete-problem" />
    </div>
  );
}

export function AccessForm(props: Props) {
  const [access, setAccess] = useState<AccessMode>(props.sheet.settings.access ?? 'open');
  const patch = usePatch(props);
  return (
    <form class="setting" onSubmit={submitting(() => patch.save({ access }))}>
      <fieldset>
        <legend>Who may use the row API</legend>
        {accessModes.map((mode) => (
          <label class="choice" key={mode}>
            <input
              type="radio"
              name="access"
              value={mode}
              checked={access === mode}
              onChange={() => setAccess(mode)}
            />
            <span>
              <strong>{accessLabels[mode].name}</strong> {accessLabels[mode].explains}
            </span>
          </label>
        ))}
      </fieldset>
      <SaveRow patch={patch} label="Save access" id="setting-access-problem" />
    </form>
  );
}

export function OriginsForm(props: Props) {
  const stored = props.sheet.settings.allowedOrigins;
  const [text, setText] = useState((stored ?? []).join('\n'));
  const patch = usePatch(props);
  const origins = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return (
    <form class="setting" onSubmit={submitting(() => patch.save({ allowedOrigins: origins }))}>
      <label for="setting-origins">Allowed origins</label>
      <p class="hint" id="setting-origins-hint">
        One per line, like <code>https://shop.example.com</code>: web pages there may call the row
        API from the browser. <code>*</code> allows any.{' '}
        {stored === undefined && 'Not set yet: any origin may, unless the sheet is private.'}
      </p>
      <textarea
        id="setting-origins"
        rows={3}
        value={text}
        aria-describedby="setting-origins-hint setting-origins-problem"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <SaveRow patch={patch} label="Save origins" id="setting-origins-problem" />
    </form>
  );
}

export function FreshnessForm(props: Props) {
  const [seconds, setSeconds] = useState(String(props.sheet.settings.freshnessSeconds ?? 10));
  const patch = usePatch(props);
  return (
    <form
      class="setting"
      onSubmit={submitting(() => patch.save({ freshnessSeconds: Number(seconds) }))}
    >
      <label for="setting-freshness">Freshness window, in seconds</label>
      <p class="hint" id="setting-freshness-hint">
        How old the copy of the Google spreadsheet may be before a read fetches it again; 0 reads it
        before every request.
      </p>
      <input
        id="setting-freshness"
        type="number"
        min={0}
        max={86400}
        required
        value={seconds}
        aria-describedby="setting-freshness-hint setting-freshness-problem"
        onInput={(event) => setSeconds(event.currentTarget.value)}
      />
      <SaveRow patch={patch} label="Save freshness" id="setting-freshness-problem" />
    </form>
  );
}

export function TextColumnsForm(props: Props) {
  const [text, setText] = useState<string[]>(props.sheet.settings.textColumns ?? []);
  const patch = usePatch(props);
  const toggle = (column: string, on: boolean) =>
    setText((before) => (on ? [...before, column] : before.filter((name) => name !== column)));
  return (
    <form class="setting" onSubmit={submitting(() => patch.save({ textColumns: text }))}>
      <fieldset aria-describedby="setting-text-hint">
        <legend>Text columns</legend>
        <p class="hint" id="setting-text-hint">
          Codes such as SKUs or postcodes, where <code>007</code> and <code>1001</code> are of one
          kind: every cell is kept as text. Checking a column turns the numbers stored in it into
          the text they show.
        </p>
        {props.sheet.columns.map((column) => (
          <label class="choice" key={column}>
            <input
              type="checkbox"
              checked={text.includes(column)}
              onChange={(event) => toggle(column, event.currentTarget.checked)}
            />
            <span>{column}</span>
          </label>
        ))}
      </fieldset>
      <SaveRow patch={patch} label="Save text columns" id="setting-text-problem" />
    </form>
  );
}
