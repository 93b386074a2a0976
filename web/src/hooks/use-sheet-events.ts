import { useEffect, useRef } from 'preact/hooks';
import { authHeaders } from '../api/client.ts';
import { EventStreamParser } from '../lib/event-stream.ts';

/** How long after the first of a burst of events the callback runs, once for them all. */
const settleMs = 300;
const reconnectMs = [1000, 2000, 5000, 10_000];

/**
 * Calls `onChange` when the sheet's rows change, whoever changed them (a person editing the
 * Google spreadsheet included), from the sheet's event stream. The stream is read with fetch
 * rather than EventSource, which cannot send the administrator token: the token is sent only as
 * an Authorization header, never in a URL. Reconnects with Last-Event-ID, missing nothing.
 */
export function useSheetEvents(sheetId: string, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const changed = () => {
      timer ??= setTimeout(() => {
        timer = null;
        latest.current();
      }, settleMs);
    };
    void follow(sheetId, stop.signal, changed);
    return () => {
      stop.abort();
      if (timer !== null) clearTimeout(timer);
    };
  }, [sheetId]);
}

async function follow(sheetId: string, signal: AbortSignal, changed: () => void): Promise<void> {
  let lastId: string | null = null;
  for (let failures = 0; !signal.aborted; failures++) {
    try {
      const response: Response = await fetch(`/api/v1/${encodeURIComponent(sheetId)}/events`, {
        headers: {
          accept: 'text/event-stream',
          ...authHeaders(),
          ...(lastId === null ? {} : { 'last-event-id': lastId }),
        },
        signal,
      });
      // A sheet without streams for this caller (or gone): nothing to follow.
      if (response.status >= 400 && response.status < 500) return;
      if (response.ok && response.body !== null) {
        failures = 0;
        const parser = new EventStreamParser();
        const reader: ReadableStreamDefaultReader<string> = response.body
          .pipeThrough(new TextDecoderStream())
          .getReader();
        for (;;) {
          const { value, done }: ReadableStreamReadResult<string> = await reader.read();
          if (done) break;
          for (const event of parser.push(value)) {
            lastId = event.id ?? lastId;
            changed();
          }
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    const delay = reconnectMs[Math.min(failures, reconnectMs.length - 1)] ?? 10_000;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
