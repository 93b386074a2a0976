import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { createKey, listKeys, revokeKey, rotateKey } from '../api/admin-api.ts';
import { keyScopes, type ApiKey, type KeyScope, type NewApiKey, type Sheet } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { RemoveConfirm } from '../components/remove-confirm.tsx';
import { RotateConfirm } from '../components/rotate-confirm.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';
import { timeLabel } from '../lib/sheet-labels.ts';

const scopeMeaning: Record<KeyScope, string> = {
  read: 'read rows (GET)',
  create: 'add rows (POST)',
  update: 'change rows (PUT, PATCH)',
  delete: 'delete rows (DELETE)',
};

/** Lifetimes a new key may be given here; the API takes any, up to ten years. */
const lifetimes = [
  { seconds: 0, label: 'Never' },
  { seconds: 30 * 86_400, label: 'In 30 days' },
  { seconds: 90 * 86_400, label: 'In 90 days' },
  { seconds: 365 * 86_400, label: 'In a year' },
] as const;

/**
 * The sheet's API keys: create one with scopes and an expiry, copy it the one time it is shown,
 * rotate it into a new one (shown once too), revoke it.
 */
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
              <th scope="col">Expires</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <KeyRow
                key={key.id}
                sheet={sheet}
                apiKey={key}
                onRevoked={keys.reload}
                onRotated={(made) => {
                  setCreated(made);
                  keys.reload();
                }}
              />
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
            {created.replaces !== null && ' Put it where the key it replaces was used.'}
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
  const [lifetime, setLifetime] = useState(0);
  const action = useAction();
  return (
    <form
      class="stack new-key-form"
      aria-labelledby="new-key-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const expiresIn = lifetime === 0 ? undefined : lifetime;
          onCreated(await createKey(sheet.id, scopes, name.trim() || undefined, expiresIn));
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
      <div class="field">
        <label for="key-expires">Expires</label>
        <select
          id="key-expires"
          value={lifetime}
          onChange={(event) => setLifetime(Number(event.currentTarget.value))}
        >
          {lifetimes.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
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
  onRotated: (key: NewApiKey) => void;
}

/** When a key stops working: never, a time, or a time gone by. */
function Expiry({ at }: { at: string | null }) {
  if (at === null) return <span class="hint">never</span>;
  return (
    <>
      <time dateTime={at}>{timeLabel(at)}</time>
      {Date.parse(at) <= Date.now() && <strong> (expired)</strong>}
    </>
  );
}

function KeyRow({ sheet, apiKey, onRevoked, onRotated }: KeyRowProps) {
  const [confirming, setConfirming] = useState<'revoke' | 'rotate' | null>(null);
  const action = useAction();
  const label = apiKey.name || apiKey.id;
  const focusTarget = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (confirming === 'revoke' || opened.current) focusTarget.current?.focus();
    opened.current = confirming !== null;
  }, [confirming]);
  return (
    <>
      <tr>
        <th scope="row" data-label="Name">
          {apiKey.name || <span class="hint">unnamed ({apiKey.id})</span>}
          {apiKey.rotatedTo !== null && <span class="hint"> (replaced)</span>}
        </th>
        <td data-label="Scopes">{apiKey.scopes.join(', ')}</td>
        <td data-label="Created">
          <time dateTime={apiKey.createdAt}>{timeLabel(apiKey.createdAt)}</time>
        </td>
        <td data-label="Expires">
          <Expiry at={apiKey.expiresAt} />
        </td>
        <td class="actions">
          {confirming === 'revoke' && (
            <RemoveConfirm
              question={`Revoke “${label}”? Apps using it stop working.`}
              yes="Yes, revoke"
              yesRef={focusTarget}
              busy={action.busy}
              onKeep={() => setConfirming(null)}
              onYes={() =>
                void action.run(async () => {
                  await revokeKey(sheet.id, apiKey.id);
                  onRevoked();
                })
              }
            />
          )}
          {confirming === 'rotate' && (
            <RotateConfirm
              what={`“${label}”`}
              busy={action.busy}
              onCancel={() => setConfirming(null)}
              onRotate={(overlapSeconds) =>
                void action.run(async () => {
                  onRotated(await rotateKey(sheet.id, apiKey.id, overlapSeconds));
                  setConfirming(null);
                })
              }
            />
          )}
          {confirming === null && (
            <>
              {apiKey.rotatedTo === null && (
                <button
                  type="button"
                  class="secondary small"
                  aria-label={`Rotate key ${label}`}
                  onClick={() => setConfirming('rotate')}
                >
                  Rotate
                </button>
              )}{' '}
              <button
                type="button"
                class="secondary small"
                ref={focusTarget}
                aria-label={`Revoke key ${label}`}
                onClick={() => setConfirming('revoke')}
              >
                Revoke
              </button>
            </>
          )}
        </td>
      </tr>
      {action.problem !== null && (
        <tr class="problem-row">
          <td colSpan={5}>
            <ProblemMessage problem={action.problem} />
          </td>
        </tr>
      )}
    </>
  );
}
