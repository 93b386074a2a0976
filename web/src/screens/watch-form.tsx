import { useState } from 'preact/hooks';
import { listWebhooks, updateSheet } from '../api/admin-api.ts';
import type { Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';

type Choice = 'auto' | 'on' | 'off';

const choices: { value: Choice; name: string; explains: string }[] = [
  {
    value: 'auto',
    name: 'While someone listens',
    explains: 'while it has a webhook switched on, or an event stream opened with a key.',
  },
  { value: 'on', name: 'Always', explains: 'whether anyone listens or not.' },
  { value: 'off', name: 'Never', explains: 'changes made in Google are found by reads only.' },
];

/**
 * Whether the Google spreadsheet is checked for changes on a schedule (see the README's
 * "Watching a tab for changes"), and whether it is now.
 */
export function WatchForm({ sheet, onSaved }: { sheet: Sheet; onSaved: (sheet: Sheet) => void }) {
  const setting = sheet.settings.watch;
  const [choice, setChoice] = useState<Choice>(
    setting === undefined ? 'auto' : setting ? 'on' : 'off',
  );
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const webhooks = useResource(() => listWebhooks(sheet.id), sheet.id);
  const hooked = (webhooks.data ?? []).some((webhook) => !webhook.disabledAt);
  const watched = setting ?? hooked;
  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    void action.run(async () => {
      const watch = choice === 'auto' ? null : choice === 'on';
      onSaved(await updateSheet(sheet.id, { watch }));
      setSaved(true);
    });
  };
  return (
    <form class="setting" onSubmit={save}>
      <fieldset>
        <legend>Watch the spreadsheet for changes</legend>
        <p class="hint" id="setting-watch-status" role="status">
          {watched
            ? 'Watched: a person’s edit in Google becomes events within seconds, without a read.'
            : setting === false
              ? 'Not watched.'
              : 'Not watched now, unless an event stream is open with a key (this console’s rows view opens one while you look at them).'}
        </p>
        {choices.map(({ value, name, explains }) => (
          <label class="choice" key={value}>
            <input
              type="radio"
              name="watch"
              value={value}
              checked={choice === value}
              onChange={() => setChoice(value)}
            />
            <span>
              <strong>{name}</strong> {explains}
            </span>
          </label>
        ))}
      </fieldset>
      <ProblemMessage problem={action.problem} id="setting-watch-problem" />
      <div class="save-row">
        <button type="submit" class="secondary" disabled={action.busy}>
          {action.busy ? 'Saving…' : 'Save watching'}
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
