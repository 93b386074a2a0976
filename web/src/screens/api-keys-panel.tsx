import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { createKey, listKeys, revokeKey } from '../api/admin-api.ts';
import { keyScopes, type ApiKey, type KeyScope, type NewApiKey, type Sheet } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';
import { timeLabel } from '../lib/sheet-labels.ts';

const scopeMeaning: Record<KeyScope, string> = {
  read: 'read rows (GET)',
  create: 'add rows (POST)',
  update: 'change rows (PUT, PATCH)',
  delete: 'delete rows (DELETE)',
};

/** The sheet's API keys: create one with scopes, copy it the one time it is shown, revoke it. */
export function ApiKeysPanel({ sheet }: { sheet: Sheet }) {
  const keys = useResource(() => listKeys(sheet.id), `keys:${sheet.id}`);
  const [created, setCreated] = useState<NewApiKey | null>(null);
  return (
    <section class="panel" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p class="hint">
        A key opens this sheet alone, for what its scopes allow. Send it as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-Api-Key: &lt;key&gt;</code>.
      </p>
      <ProblemMessage problem={keys.problem} />
      {keys.data !== undefined && keys.data.length === 0 && <p class="empty">No keys yet.</p>}
      {keys.data !== undefined && keys.data.length > 0 && (
        <table class="keys">
          <caption class="visually-hidden">API keys of {sheet.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <KeyRow key={key.id} sheet={sheet} apiKey={key} onRevoked={keys.reload} />
            ))}
          </tbody>
        </table>
      )}
      <NewKeyForm
        sheet={sheet}
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
      {created !== null && (
        <div class="new-key" role="status">
          <p>
            <strong>Copy the key {created.name ? `“${created.name}”` : ''} now:</strong> it is not
            shown again.
          </p>
          <p class="key-secret">
            <code>{created.key}</code> <CopyButton text={created.key} label="the new API key" />
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
    </section>
  );
}

function NewKeyForm({ sheet, onCreated }: { sheet: Sheet; onCreated: (key: NewApiKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<KeyScope[]>(['read']);
  const action = useAction();
  return (
    <form
      class="stack new-key-form"
      aria-labelledby="new-key-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          onCreated(await createKey(sheet.id, scopes, name.trim() || undefined));
          setName('');
        });
      }}
    >
      <h3 id="new-key-heading">New key</h3>
      <div class="field">
        <label for="key-name">Key name</label>
        <p class="hint" id="key-name-hint">
          Optional: who or what uses it, like "website".
        </p>
        <input
          id="key-name"
          value={name}
          aria-describedby="key-name-hint"
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <fieldset>
        <legend>Scopes</legend>
        {keyScopes.map((scope) => (
          <label class="choice" key={scope}>
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(event) =>
                setScopes(
                  event.currentTarget.checked
                    ? keyScopes.filter((s) => s === scope || scopes.includes(s))
                    : scopes.filter((s) => s !== scope),
                )
              }
            />
            <span>
              <strong>{scope}</strong>: {scopeMeaning[scope]}
            </span>
          </label>
        ))}
      </fieldset>
      <ProblemMessage problem={action.problem} />
      <button type="submit" disabled={action.busy}>
        {action.busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

interface KeyRowProps {
  sheet: Sheet;
  apiKey: ApiKey;
  onRevoked: () => void;
}

function KeyRow({ sheet, apiKey, onRevoked }: KeyRowProps) {
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const label = apiKey.name || apiKey.id;
  const focusTarget = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (confirming || opened.current) focusTarget.current?.focus();
    opened.current = confirming;
  }, [confirming]);
  return (
    <>
      <tr>
        <th scope="row" data-label="Name">
          {apiKey.name || <span class="hint">unnamed ({apiKey.id})</span>}
        </th>
        <td data-label="Scopes">{apiKey.scopes.join(', ')}</td>
        <td data-label="Created">
          <time dateTime={apiKey.createdAt}>{timeLabel(apiKey.createdAt)}</time>
        </td>
        <td class="actions">
          {confirming ? (
            <>
              <span class="confirm">Revoke “{label}”? Apps using it stop working.</span>
              <button
                type="button"
                class="danger small"
                ref={focusTarget}
                disabled={action.busy}
                onClick={() =>
                  void action.run(async () => {
                    await revokeKey(sheet.id, apiKey.id);
                    onRevoked();
                  })
                }
              >
                Yes, revoke
              </button>
              <button type="button" class="secondary small" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <button
              type="button"
              class="secondary small"
              ref={focusTarget}
              aria-label={`Revoke key ${label}`}
              onClick={() => setConfirming(true)}
            >
              Revoke
            </button>
          )}
        </td>
      </tr>
      {action.problem !== null && (
        <tr class="problem-row">
          <td colSpan={4}>
            <ProblemMessage problem={action.problem} />
          </td>
        </tr>
      )}
    </>
  );
}
