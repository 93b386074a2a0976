import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on a loopback port: it records every request, and answers each with the
 * next of `answers` (a status, or 'hang' to answer only after `hangMs`), then 200.
 */
export async function receiver(
  t: TestContext,
  answers: (number | 'hang')[] = [],
  hangMs = 1000,
  port = 0,
) {
  const received: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      for (const wake of waiters.splice(0)) wake();
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') setTimeout(() => response.end(), hangMs);
      else response.writeHead(answer).end();
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const until = async (count: number, withinMs = 10_000) => {
    const deadline = Date.now() + withinMs;
    while (received.length < count) {
      assert.ok(Date.now() < deadline, `${received.length} of ${count} deliveries arrived`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    return received;
  };
  return { url, received, until };
}
