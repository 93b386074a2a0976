import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allowedOriginsOf, type AccessControl } from '../access/access-control.ts';
import { Problem } from '../errors/problem.ts';
import type { EventSettings } from '../sheets/event-settings.ts';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { EventPages, EventStream } from './event-stream.ts';
import { documentedOnce, problemResponses, rowOperation } from './schemas.ts';

export interface EventRouteOptions {
  sheets: Sheets;
  access: AccessControl;
  settings: EventSettings;
  /** Whether the request's caller (a key or the administrator) makes its sheet watched. */
  listening?: (request: FastifyRequest) => boolean;
  /** When the request's API key expires, as its access check found; null for no end. */
  expiryOf?: (request: FastifyRequest) => string | null;
}

/** Seconds a client refused a stream is asked to wait. */
const retryAfterSeconds = 10;

/**
 * `GET /api/v1/<sheet_id>/events`: the sheet's row events as a server-sent event stream, for
 * browsers (`EventSource`). Each event is `id:` its id, `event:` its type, `data:` its JSON,
 * as webhooks deliver it. A stream starts after the newest event, or after `Last-Event-ID` when
 * the client resumes, and is read from the outbox, so a client that reconnects misses nothing
 * committed meanwhile, whichever server committed it. A `Last-Event-ID` the outbox no longer
 * holds (unknown, or past the retention) starts the stream at the present with a `reset` event:
 * the client reads the rows again. Access is that of a read of the rows (checked by the row
 * routes' hook), and is checked again as the stream goes on.
 */
export async function eventRoutes(
  app: FastifyInstance,
  { sheets, access, settings, listening, expiryOf }: EventRouteOptions,
): Promise<void> {
  const open = new Set<EventStream>();
  const slots = new StreamSlots(settings);
  const pages = new EventPages(sheets, settings.retentionMs);
  // A change of access made here is felt at once; one made on another server, at the re-check.
  sheets.events.onAccessChanged((sheetId) => {
    for (const stream of open) if (stream.sheetId === sheetId) stream.recheck();
  });
  // A stream never ends by itself: closing the server ends them all.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  async function stream(
    request: FastifyRequest<{ Params: { sheetId: string } }>,
    reply: FastifyReply,
  ) {
    const sheet = await sheets.loadFresh(request, request.params.sheetId);
    const release = slots.take(request.ip);
    let stream: EventStream;
    try {
      const resumeFrom = request.headers['last-event-id'];
      const notBefore = new Date(Date.now() - settings.retentionMs);
      let cursor =
        typeof resumeFrom === 'string' && resumeFrom !== ''
          ? await sheets.outbox.eventCursor(sheet.id, resumeFrom, notBefore)
          : await sheets.outbox.latestEventSeq(sheet.id);
      let reset: { lastId: string | null } | null = null;
      if (cursor === null) {
        // The client's history is gone: it starts again from the present, and from the rows.
        const lastId = await sheets.outbox.latestEventId(sheet.id);
        cursor =
          lastId === null ? 0 : ((await sheets.outbox.eventCursor(sheet.id, lastId, epoch)) ?? 0);
        reset = { lastId };
      }
      const origin = request.headers.origin;
      // An origin let in when the stream started is checked again; same-origin pages send none.
      const checkOrigin = origin !== undefined && originAllowed(sheet, origin);
      const admits = async (now: Sheet) => {
        const caller = await access.row(request, now);
        if (checkOrigin && !originAllowed(now, origin)) throw new Error('origin no longer allowed');
        return caller.kind === 'key' ? caller.expiresAt : null;
      };
      stream = new EventStream(
        reply.raw,
        sheet.id,
        cursor,
        {
          sheets,
          pages,
          settings,
          // A stream lasts: its own logger names the request and the sheet on each line.
          log: request.log.child({ reqId: request.id, sheetId: sheet.id }),
          admits,
          expiresAt: expiryOf?.(request) ?? null,
          listening: listening?.(request) ?? false,
        },
        () => {
          release();
          open.delete(stream);
        },
      );
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      open.add(stream);
      stream.start(reset);
    } catch (error) {
      release();
      throw error;
    }
  }

  for (const url of ['/api/v1/:sheetId/events', '/api/v1/sheets/:sheetId/events']) {
    app.get(url, { schema: documentedOnce(eventsSchema, url) }, stream);
  }
}

const epoch = new Date(0);

function originAllowed(sheet: Sheet, origin: string): boolean {
  const allowed = allowedOriginsOf(sheet);
  return allowed.includes('*') || allowed.includes(origin);
}

/** Streams open on this server, by client address: each holds a connection until it ends. */
class StreamSlots {
  readonly #byAddress = new Map<string, number>();
  #total = 0;

  constructor(private readonly settings: EventSettings) {}

  /** Takes a slot for a stream from `address`; answers how to give it back. */
  take(address: string): () => void {
    const mine = this.#byAddress.get(address) ?? 0;
    const retry = { 'retry-after': String(retryAfterSeconds) };
    if (mine >= this.settings.streamsPerAddress) {
      throw new Problem(
        'too-many-streams',
        `An address may hold at most ${this.settings.streamsPerAddress} event streams open at once; close one, or try again later.`,
        { max: this.settings.streamsPerAddress },
        retry,
      );
    }
    if (this.#total >= this.settings.streamsPerServer) {
      throw new Problem(
        'streams-unavailable',
        `This server holds its most event streams (${this.settings.streamsPerServer}); try again later.`,
        {},
        retry,
      );
    }
    this.#byAddress.set(address, mine + 1);
    this.#total += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#total -= 1;
      const left = (this.#byAddress.get(address) ?? 1) - 1;
      if (left === 0) this.#byAddress.delete(address);
      else this.#byAddress.set(address, left);
    };
  }
}

const eventsSchema = {
  summary: 'Stream the row events of a sheet (server-sent events)',
  ...rowOperation('streamEvents'),
  description:
    "A `text/event-stream` of `rows.created`, `rows.updated` and `rows.deleted` events, one per committed write, and `columns.changed` when a spreadsheet's header changes: `id:` the event id, `event:` its type, `data:` its JSON (the same body webhooks deliver). Starts after the newest event, or after the `Last-Event-ID` header when resuming; a `Last-Event-ID` unknown or past the retention starts at the present with a `reset` event (read the rows again). A comment line every 15 s keeps it open. Needs the read scope on a private sheet; ends when that access goes. 429 `too-many-streams` past the streams allowed per address, 503 `streams-unavailable` past those of the server.",
  response: {
    200: {
      description: 'The stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    ...problemResponses('streamEvents'),
  },
};
