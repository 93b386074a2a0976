import { once } from 'node:events';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { percentile, runOnce, single } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport } from '../harness/servers.ts';
import { paced, posting } from '../harness/wrk-scripts.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case l: webhook delivery latency. Single-row POSTs at a fixed rate to a sheet with one webhook,
 * whose receiver runs in the bench process; each delivery's latency is from its event's
 * timestamp (taken in the write's transaction, so at commit) to the moment the receiver has the
 * whole request. Every acknowledged row must arrive once.
 */
export interface WebhookPlan {
  ratePerSecond: number;
  seconds: number;
}

export interface WebhookResult {
  acknowledged: number;
  delivered: number;
  duplicates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  targets: TargetOutcome[];
}

export async function webhookCase(plan: WebhookPlan): Promise<WebhookResult> {
  const title = `l. Webhook delivery: ${plan.ratePerSecond} writes/s for ${plan.seconds} s, SQLite`;
  log(`\n${title}`);
  const latencies: number[] = [];
  const seen = new Map<string, number>();
  const receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(body) as { id: string; timestamp: string };
      seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
      latencies.push(arrived - Date.parse(event.timestamp));
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dir = join(work, 'webhooks');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const server = await startEmptySheetport('sheetport', dir, {
    SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ id: string }>);
    const { id } = await post('/admin/v1/sheets', { name: 'hooked', columns: ['n', 'at'] });
    await post(`/admin/v1/sheets/${id}/webhooks`, { url: hookUrl });
    const connections = 20;
    const writes = paced(
      posting(`/api/v1/${id}`, { format: '{"n":%d}', values: ['n'] }),
      plan.ratePerSecond,
      connections,
    );
    const run = await runOnce(single(server, writes), connections, plan.seconds);
    const acknowledged = run.legs.reduce((sum, leg) => sum + leg.requests - leg.non2xx, 0);
    // Deliveries still in flight when the writes stop are waited for, for a while.
    const deadline = Date.now() + 30_000;
    while (seen.size < acknowledged && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const duplicates = [...seen.values()].reduce((sum, count) => sum + count - 1, 0);
    const outcome: WebhookResult = {
      acknowledged,
      delivered: seen.size,
      duplicates,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: Math.max(...latencies),
      targets: [],
    };
    outcome.targets.push(
      target(
        'l. webhook: acknowledged writes not delivered, and events delivered more than once',
        '=',
        0,
        Math.max(0, acknowledged - seen.size) + duplicates,
        'count',
      ),
    );
    print(`\n== ${title} ==`);
    print(
      'wrk, 20 connections, each pausing its share between requests so that all stay at or under the rate; one',
    );
    print('webhook to a receiver in the bench process,');
    print(
      "latency from the event's timestamp (taken at commit) to the receiver having the request.",
    );
    print(
      `writes acknowledged ${acknowledged} (${(acknowledged / plan.seconds).toFixed(0)}/s); events delivered ${seen.size}, extra copies ${duplicates}`,
    );
    print(
      `delivery latency p50 ${outcome.p50Ms.toFixed(1)} ms, p99 ${outcome.p99Ms.toFixed(1)} ms, max ${outcome.maxMs.toFixed(0)} ms`,
    );
    return outcome;
  } finally {
    await server.stop();
    receiver.closeAllConnections();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}
