/** One server-sent event as the stream gives it. */
export interface StreamEvent {
  id: string | null;
  type: string;
  data: string;
}

/**
 * Reads a `text/event-stream` as it arrives, in pieces cut anywhere: lines are joined across
 * pieces, and an event ends at a blank line. Comments (`: heartbeat`) are skipped. A subset of
 * the HTML standard's parser: what Sheetport's streams send (`id`, `event`, `data`).
 */
export class EventStreamParser {
  #buffer = '';
  #id: string | null = null;
  #type = '';
  #data: string[] = [];

  /** The events completed by this piece of the stream. */
  push(piece: string): StreamEvent[] {
    this.#buffer += piece;
    const events: StreamEvent[] = [];
    for (;;) {
      const end = this.#buffer.search(/\r\n|\r|\n/);
      // A lone \r at the end may be the first half of \r\n: wait for the next piece.
      if (end < 0 || (end === this.#buffer.length - 1 && this.#buffer.endsWith('\r'))) break;
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + (this.#buffer.startsWith('\r\n', end) ? 2 : 1));
      const event = this.#line(line);
      if (event !== null) events.push(event);
    }
    return events;
  }

  #line(line: string): StreamEvent | null {
    if (line === '') {
      if (this.#data.length === 0) {
        this.#type = '';
        return null;
      }
      const event = { id: this.#id, type: this.#type || 'message', data: this.#data.join('\n') };
      this.#type = '';
      this.#data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') this.#id = value;
    else if (field === 'event') this.#type = value;
    else if (field === 'data') this.#data.push(value);
    return null;
  }
}
