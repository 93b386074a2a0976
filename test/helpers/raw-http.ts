import { once } from 'node:events';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` as it is over a fresh connection and reads the answer until the server closes
 * it: for requests that fetch would refuse to send or would tidy up first.
 */
export async function sendRaw(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.write(request);
  await once(socket, 'close');
  const split = answer.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = answer.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: answer.slice(split + 4) };
}

/** A request line and headers (each ending in CRLF) with a body, closed after one answer. */
export function rawRequest(line: string, headers = '', body?: string): string {
  const length = body === undefined ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${line} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}${length}\r\n${body ?? ''}`;
}
