import { useState } from 'preact/hooks';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
} from '../api/admin-api.ts';
import {
  webhookEvents,
  type NewWebhook,
  type Sheet,
  type Webhook,
  type WebhookEvent,
} from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { RemoveConfirm } from '../components/remove-confirm.tsx';
import { RotateConfirm } from '../components/rotate-confirm.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useResource } from '../hooks/use-resource.ts';
import { timeLabel } from '../lib/sheet-labels.ts';

/**
 * The sheet's webhooks: add one (its signing secret shown the one time), list them, see each
 * one's recent delivery attempts, rotate its secret (the new one shown once), remove one.
 */
export function WebhooksPanel({ sheet }: { sheet: Sheet }) {
  const webhooks = useResource(() => listWebhooks(sheet.id), `webhooks:${sheet.id}`);
  const [created, setCreated] = useState<NewWebhook | null>(null);
  return (
    <section class="panel" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="hint">
        Each change to the rows is POSTed to these URLs as a signed JSON event (Standard Webhooks),
        at least once and in order.
      </p>
      <ProblemMessage problem={webhooks.problem} />
      {webhooks.data !== undefined && webhooks.data.length === 0 && (
        <p class="empty">No webhooks yet.</p>
      )}
      {webhooks.data?.map((webhook) => (
        <WebhookItem
          key={webhook.id}
          sheet={sheet}
          webhook={webhook}
          onRemoved={webhooks.reload}
          onRotated={(rotated) => {
            setCreated(rotated);
            webhooks.reload();
          }}
        />
      ))}
      <NewWebhookForm
        sheet={sheet}
        onCreated={(webhook) => {
          setCreated(webhook);
          webhooks.reload();
        }}
      />
      {created !== null && (
        <div class="new-key" role="status">
          <p>
            <strong>Copy the signing secret now:</strong> it is not shown again.
          </p>
          <p class="key-secret">
            <code>{created.secret}</code>{' '}
            <CopyButton text={created.secret} label="the webhook's signing secret" />
          </p>
          <button type="button" class="secondary small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
    </section>
  );
}

function NewWebhookForm({
  sheet,
  onCreated,
}: {
  sheet: Sheet;
  onCreated: (webhook: NewWebhook) => void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...webhookEvents]);
  const action = useAction();
  return (
    <form
      class="stack new-key-form"
      aria-labelledby="new-webhook-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          onCreated(await createWebhook(sheet.id, url.trim(), events));
          setUrl('');
        });
      }}
    >
      <h3 id="new-webhook-heading">New webhook</h3>
      <div class="field">
        <label for="webhook-url">Webhook URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          placeholder="https://example.com/hooks/sheet"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
      </div>
      <fieldset>
        <legend>Events</legend>
        {webhookEvents.map((type) => (
          <label class="choice" key={type}>
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) =>
                setEvents(
                  event.currentTarget.checked
                    ? webhookEvents.filter((t) => t === type || events.includes(t))
                    : events.filter((t) => t !== type),
                )
              }
            />
            <span>{type}</span>
          </label>
        ))}
      </fieldset>
      <ProblemMessage problem={action.problem} />
      <button type="submit" disabled={action.busy || events.length === 0}>
        {action.busy ? 'Adding…' : 'Add webhook'}
      </button>
    </form>
  );
}

function WebhookItem({
  sheet,
  webhook,
  onRemoved,
  onRotated,
}: {
  sheet: Sheet;
  webhook: Webhook;
  onRemoved: () => void;
  onRotated: (webhook: NewWebhook) => void;
}) {
  const [showing, setShowing] = useState(false);
  const [confirming, setConfirming] = useState<'remove' | 'rotate' | null>(null);
  const action = useAction();
  return (
    <div class="webhook">
      <p>
        <code>{webhook.url}</code> — {webhook.events.join(', ')}; added{' '}
        <time dateTime={webhook.createdAt}>{timeLabel(webhook.createdAt)}</time>
        {webhook.disabledAt !== null && webhook.disabledAt !== undefined && (
          <strong> Switched off: {webhook.disabledReason}</strong>
        )}
        {webhook.previousSecretExpiresAt !== null && (
          <>
            . The previous secret signs too until{' '}
            <time dateTime={webhook.previousSecretExpiresAt}>
              {timeLabel(webhook.previousSecretExpiresAt)}
            </time>
          </>
        )}
      </p>
      <div class="filter-actions">
        <button
          type="button"
          class="secondary small"
          aria-expanded={showing}
          onClick={() => setShowing(!showing)}
        >
          {showing ? 'Hide deliveries' : 'Recent deliveries'}
        </button>
        {confirming === 'remove' && (
          <RemoveConfirm
            question="Remove this webhook?"
            yes="Yes, remove"
            busy={action.busy}
            onKeep={() => setConfirming(null)}
            onYes={() =>
              void action.run(async () => {
                await deleteWebhook(sheet.id, webhook.id);
                onRemoved();
              })
            }
          />
        )}
        {confirming === 'rotate' && (
          <RotateConfirm
            what="The old secret"
            busy={action.busy}
            onCancel={() => setConfirming(null)}
            onRotate={(overlapSeconds) =>
              void action.run(async () => {
                onRotated(await rotateWebhookSecret(sheet.id, webhook.id, overlapSeconds));
                setConfirming(null);
              })
            }
          />
        )}
        {confirming === null && (
          <>
            <button
              type="button"
              class="secondary small"
              aria-label={`Rotate the secret of webhook ${webhook.url}`}
              onClick={() => setConfirming('rotate')}
            >
              Rotate secret
            </button>
            <button
              type="button"
              class="secondary small"
              aria-label={`Remove webhook ${webhook.url}`}
              onClick={() => setConfirming('remove')}
            >
              Remove
            </button>
          </>
        )}
      </div>
      <ProblemMessage problem={action.problem} />
      {showing && <Deliveries sheet={sheet} webhook={webhook} />}
    </div>
  );
}

function Deliveries({ sheet, webhook }: { sheet: Sheet; webhook: Webhook }) {
  const deliveries = useResource(
    () => listDeliveries(sheet.id, webhook.id),
    `deliveries:${webhook.id}`,
  );
  return (
    <>
      <ProblemMessage problem={deliveries.problem} />
      {deliveries.data !== undefined && deliveries.data.length === 0 && (
        <p class="empty">Nothing sent yet.</p>
      )}
      {deliveries.data !== undefined && deliveries.data.length > 0 && (
        <table class="keys">
          <caption class="visually-hidden">Recent deliveries to {webhook.url}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">Next try</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((delivery) => (
              <tr key={`${delivery.eventId}:${delivery.attempt}`}>
                <td data-label="When">
                  <time dateTime={delivery.at}>{timeLabel(delivery.at)}</time>
                </td>
                <td data-label="Event">{delivery.type}</td>
                <td data-label="Attempt">{delivery.attempt}</td>
                <td data-label="Answer">
                  {delivery.status ?? 'none'}
                  {delivery.error !== null && ` (${delivery.error})`}
                </td>
                <td data-label="Next try">
                  {delivery.nextRetryAt === null ? '—' : timeLabel(delivery.nextRetryAt)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
