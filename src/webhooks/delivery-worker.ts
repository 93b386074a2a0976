import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Problem } from '../errors/problem.ts';
import type { DeliveryRecord, SheetStore, WebhookProgress, WebhookRecord } from '../store/store.ts';
import { resolveDestination, type Destination, type Resolver } from './destination.ts';
import { signatureHeader, signingSecrets } from './signature.ts';

export interface DeliverySettings {
  /** Let webhooks reach loopback and private addresses (SHEETPORT_WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** How often the outbox is looked at for events of other servers; local writes wake it. */
  pollMs: number;
  /** Delays between attempts at one event; the last repeats. Jitter of ±20% is added. */
  retryDelaysMs: number[];
  /** An event still failing this long after its first attempt is given up on. */
  giveUpMs: number;
  /** An attempt not answered in this time, from the DNS lookup on, has failed. */
  timeoutMs: number;
  /** How destinations are resolved at delivery; the system's resolver unless a test injects one. */
  resolver?: Resolver;
}

export const defaultDeliverySettings: DeliverySettings = {
  allowPrivate: false,
  pollMs: 1000,
  retryDelaysMs: [5, 30, 120, 600, 1800, 3600, 7200, 14_400].map((s) => s * 1000),
  giveUpMs: 25 * 3600 * 1000,
  timeoutMs: 10_000,
};

/** Webhooks taken per look. */
const batch = 20;
/** Delivered events are saved at least this often, in one transaction. */
const saveEvery = 50;
const saveAfterMs = 250;

/**
 * Sends each webhook its sheet's events from the outbox, in order, at least once: an event
 * counts as delivered on a 2xx answer within the timeout; otherwise it is tried again with
 * exponential backoff and jitter, the later events waiting behind it, until a day has passed,
 * when it is given up on (and logged as such). A 410 Gone switches the webhook off. Servers
 * sharing a PostgreSQL take webhooks under a lease, so each event is sent by one of them.
 */
export class DeliveryWorker {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  /**
   * Sheets with a webhook switched on, as of the last poll and the webhooks added here since:
   * only writes to these wake the worker at once (null until first known: every write does).
   * A webhook added on another server is served from the next poll on.
   */
  #watched: Set<string> | null = null;

  constructor(
    private readonly store: SheetStore,
    private readonly settings: DeliverySettings,
    private readonly log: { warn: (object: object, message: string) => void },
    private readonly onAttempt: (delivered: boolean) => void = () => {},
  ) {}

  start(): void {
    this.#timer = setInterval(() => this.#poll(), this.settings.pollMs);
    this.#timer.unref();
    this.#poll();
  }

  /** A write to a sheet committed here: its events go out now if it has webhooks. */
  written(sheetId: string): void {
    if (this.#watched === null || this.#watched.has(sheetId)) this.wake();
  }

  /** A webhook was added here to this sheet. */
  watch(sheetId: string): void {
    this.#watched?.add(sheetId);
    this.wake();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#running;
  }

  /** Looks for due deliveries now (after a write this server committed, say). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#round()
      .catch((error: unknown) => this.log.warn({ err: error }, 'webhooks: a round failed'))
      .finally(() => {
        this.#running = null;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  #poll(): void {
    this.store.webhookSheets().then(
      (ids) => {
        this.#watched = new Set(ids);
      },
      () => {
        this.#watched = null;
      },
    );
    this.wake();
  }

  async #round(): Promise<void> {
    for (;;) {
      // A server that dies holding webhooks holds them no longer than this.
      const leaseMs = this.settings.timeoutMs + 5000;
      const claimed = await this.store.claimWebhooks(leaseMs, batch);
      if (claimed.length === 0) return;
      // An attempt starts only while the lease will outlast it.
      const lastStart = Date.now() + leaseMs - this.settings.timeoutMs - 2000;
      await Promise.all(claimed.map((webhook) => this.#serve(webhook, lastStart)));
      if (claimed.length < batch || this.#stopped) return;
    }
  }

  /** Sends a webhook its pending events, in order, until one fails or none is left. */
  async #serve(webhook: WebhookRecord, lastStart: number): Promise<void> {
    let progress: WebhookProgress = { ...webhook };
    // Successes are saved in batches: a crash before a save only sends those events again.
    let unsaved: DeliveryRecord[] = [];
    let savedAt = Date.now();
    const save = async (release: boolean, last?: DeliveryRecord) => {
      await this.store.recordDelivery(
        webhook.id,
        progress,
        last === undefined ? unsaved : [...unsaved, last],
        release,
      );
      unsaved = [];
      savedAt = Date.now();
    };
    for (;;) {
      const event = await this.store.eventAfter(webhook.sheetId, progress.cursor);
      if (event === null || this.#stopped || Date.now() > lastStart) return save(true);
      if (!webhook.events.includes(event.type)) {
        progress = { ...progress, cursor: event.seq };
        continue;
      }
      const now = new Date();
      const attempt = progress.attempt + 1;
      const firstAttemptAt = progress.firstAttemptAt ?? now.toISOString();
      const answer = await this.#send(webhook, event.id, event.body);
      this.onAttempt(answer.ok);
      const delivery: DeliveryRecord = {
        webhookId: webhook.id,
        eventId: event.id,
        type: event.type,
        attempt,
        status: answer.status,
        error: answer.error,
        nextRetryAt: null,
        at: now.toISOString(),
      };
      const done = { cursor: event.seq, attempt: 0, firstAttemptAt: null };
      if (answer.ok) {
        progress = { ...progress, ...done, nextAttemptAt: now.toISOString() };
        unsaved.push(delivery);
        if (unsaved.length >= saveEvery || Date.now() - savedAt >= saveAfterMs) await save(false);
        continue;
      }
      if (answer.status === 410) {
        const reason = 'The receiver answered 410 Gone: the webhook was switched off.';
        progress = { ...progress, disabledAt: now.toISOString(), disabledReason: reason };
        return save(true, { ...delivery, error: reason });
      }
      if (now.getTime() - Date.parse(firstAttemptAt) >= this.settings.giveUpMs) {
        const gaveUp = `${delivery.error ?? `answered ${answer.status}`}; given up on after ${attempt} attempts since ${firstAttemptAt}`;
        progress = { ...progress, ...done, nextAttemptAt: now.toISOString() };
        await save(false, { ...delivery, error: gaveUp });
        continue;
      }
      const next = new Date(now.getTime() + this.#delay(attempt)).toISOString();
      progress = { ...progress, attempt, firstAttemptAt, nextAttemptAt: next };
      return save(true, { ...delivery, nextRetryAt: next });
    }
  }

  #delay(attempt: number): number {
    const delays = this.settings.retryDelaysMs;
    const base = delays[Math.min(attempt, delays.length) - 1] ?? 1000;
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  /** One POST, signed, to the address checked just before; redirects are not followed. */
  async #send(
    webhook: WebhookRecord,
    id: string,
    body: string,
  ): Promise<{ ok: boolean; status: number | null; error: string | null }> {
    // One deadline for the whole attempt: lookup, connection and answer.
    const timeoutMs = this.settings.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const timedOut = new Error(`no answer within ${timeoutMs} ms`);
    const lookupDeadline = new AbortController();
    const lookupTimer = setTimeout(() => lookupDeadline.abort(timedOut), timeoutMs);
    let destination: Destination;
    try {
      destination = await resolveDestination(webhook.url, this.settings.allowPrivate, {
        ...(this.settings.resolver === undefined ? {} : { resolver: this.settings.resolver }),
        signal: lookupDeadline.signal,
      });
    } catch (error) {
      return { ok: false, status: null, error: (error as Problem).detail ?? String(error) };
    } finally {
      clearTimeout(lookupTimer);
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Sheetport-Webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(
        signingSecrets(webhook, Date.now()),
        id,
        timestamp,
        body,
      ),
    };
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) {
        callback(null, [{ address: destination.address, family: destination.family }]);
      } else {
        callback(null, destination.address, destination.family);
      }
    };
    const send = destination.url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const request = send(
        destination.url,
        { method: 'POST', headers, lookup: pinned },
        (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          response.on('end', () =>
            resolve({ ok, status, error: ok ? null : `the receiver answered ${status}` }),
          );
          response.on('error', (error) => resolve({ ok: false, status, error: error.message }));
        },
      );
      // The whole answer must be in within the timeout, however slowly it trickles.
      const timer = setTimeout(() => request.destroy(timedOut), Math.max(0, deadline - Date.now()));
      request.on('close', () => clearTimeout(timer));
      request.on('error', (error) => resolve({ ok: false, status: null, error: error.message }));
      request.end(body);
    });
  }
}
