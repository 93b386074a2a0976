import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

/** A server-sent event as a client parses it. */
export interface Frame {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Reads an event stream with fetch, parsing its frames as they come, so that a test can await
 * frames and the stream's end. Aborted when the test ends.
 */
export async function readEvents(t: TestContext, url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  t.after(() => controller.abort());
  const response = await fetch(url, { headers, signal: controller.signal });
  const frames: Frame[] = [];
  let ended = false;
  let wake: () => void = () => {};
  const changed = () => new Promise<void>((resolve) => (wake = resolve));
  const done = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let text = '';
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done: over } = await reader.read();
        if (over) break;
        text += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const frame = parseFrame(text.slice(0, end));
          text = text.slice(end + 2);
          if (frame !== null) frames.push(frame);
        }
        wake();
      }
    } catch {
      // Aborted, or cut off by the server: either way the stream is over.
    }
    ended = true;
    wake();
  })();
  /** Resolves once `test` holds, failing after `withinMs`. */
  const until = async (test: () => boolean, what: string, withinMs = 10_000) => {
    const deadline = Date.now() + withinMs;
    while (!test()) {
      const left = deadline - Date.now();
      assert.ok(left > 0, `timed out waiting for ${what}`);
      await Promise.race([changed(), pause(Math.min(left, 100))]);
    }
  };
  return {
    response,
    frames,
    done,
    get ended() {
      return ended;
    },
    until,
    abort: () => controller.abort(),
  };
}

/** A short wait between two looks at a condition that no event announces. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `test` holds (looking every 50 ms), failing after `withinMs`. */
export async function eventually(
  test: () => boolean | Promise<boolean>,
  what: string,
  withinMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await test())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await pause(50);
  }
}

function parseFrame(text: string): Frame | null {
  const frame: Frame = { id: null, event: 'message', data: '' };
  let any = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = value;
    else continue;
    any = true;
  }
  return any ? frame : null;
}
