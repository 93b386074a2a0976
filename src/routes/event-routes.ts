import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sheets } from '../sheets/sheets.ts';

export interface EventRouteOptions {
  sheets: Sheets;
  /** How often an idle stream sends a comment, so proxies and browsers keep it open. */
  heartbeatMs: number;
  /** Whether the request's caller (a key or the administrator) makes its sheet watched. */
  listening?: (request: FastifyRequest) => boolean;
}

/** Events read from the outbox at a time. */
const page = 100;

/**
 * `GET /api/v1/<sheet_id>/events`: the sheet's row events as a server-sent event stream, for
 * browsers (`EventSource`). Each event is `id:` its id, `event:` its type, `data:` its JSON,
 * as webhooks deliver it. A stream starts after the newest event, or after `Last-Event-ID` when
 * the client resumes, and is read from the outbox, so a client that reconnects misses nothing
 * committed meanwhile, whichever server committed it. Access is that of a read of the rows
 * (checked by the row routes' hook).
 */
export async function eventRoutes(
  app: FastifyInstance,
  { sheets, heartbeatMs, listening }: EventRouteOptions,
): Promise<void> {
  const open = new Set<() => void>();
  // A stream never ends by itself: closing the server ends them all.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  async function stream(
    request: FastifyRequest<{ Params: { sheetId: string } }>,
    reply: FastifyReply,
  ) {
    const sheet = await sheets.forRead(request, request.params.sheetId);
    const resumeFrom = request.headers['last-event-id'];
    let cursor =
      typeof resumeFrom === 'string' && resumeFrom !== ''
        ? resumeFrom
        : await sheets.latestEventId(sheet.id);
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    raw.write(': connected\n\n');

    let reading: Promise<void> | null = null;
    let again = false;
    const read = async () => {
      for (;;) {
        const events = await sheets.eventsAfter(sheet.id, cursor, page);
        for (const event of events) {
          raw.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.body}\n\n`);
          cursor = event.id;
        }
        if (events.length < page) return;
      }
    };
    const wake = () => {
      if (reading !== null) {
        again = true;
        return;
      }
      reading = read()
        .catch((error: unknown) => request.log.warn({ err: error }, 'event stream: read failed'))
        .finally(() => {
          reading = null;
          if (again) {
            again = false;
            wake();
          }
        });
    };
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
    const unsubscribe = sheets.events.subscribe(sheet.id, wake, listening?.(request));
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      raw.end();
    };
    open.add(end);
    request.raw.on('close', end);
    // Events committed between the first look and the subscription are read now.
    wake();
  }

  for (const url of ['/api/v1/:sheetId/events', '/api/v1/sheets/:sheetId/events']) {
    app.get(url, { schema: eventsSchema }, stream);
  }
}

const eventsSchema = {
  summary: 'Stream the row events of a sheet (server-sent events)',
  tags: ['rows'],
  description:
    'A `text/event-stream` of `rows.created`, `rows.updated` and `rows.deleted` events, one per committed write: `id:` the event id, `event:` its type, `data:` its JSON (the same body webhooks deliver). Starts after the newest event, or after the `Last-Event-ID` header when resuming; a comment line every 15 s keeps it open. Needs the read scope on a private sheet.',
  params: {
    type: 'object',
    properties: { sheetId: { type: 'string' } },
    required: ['sheetId'],
  },
  response: {
    200: {
      description: 'The stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
  },
} as const;
