import { once } from 'node:events';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  startGoogleSheetsEmulator,
  type GoogleSheetsEmulator,
} from '../../test/google-emulator/index.ts';
import { median } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case n: watching Google tabs, through the Sheets and Drive emulator in this process, with
 * `sheetport serve` on SQLite and its default watch interval (10 s).
 *
 * 1. A person's edit to its webhook: 20 cell edits to a tab with a webhook, one at a time, each
 *    at a random moment of the interval; the delay runs from the edit to the webhook receiver
 *    having the event.
 * 2. Idle cost: 100 watched tabs (100 spreadsheets, the worst case: one probe each) that nobody
 *    edits; the upstream requests made over `idleMinutes` of real time, after every tab's first
 *    read, per hour.
 */
export interface WatchPlan {
  edits: number;
  idleTabs: number;
  idleMinutes: number;
}

export interface WatchResult {
  medianMs: number;
  worstMs: number;
  idle: { minutes: number; probesPerHour: number; readsPerHour: number };
  targets: TargetOutcome[];
}

export async function watchCase(plan: WatchPlan): Promise<WatchResult> {
  const title = `o. Watching Google tabs: ${plan.edits} edits to a tab with a webhook, ${plan.idleTabs} idle watched tabs`;
  log(`\n${title}`);
  const emulator = await startGoogleSheetsEmulator();
  const dir = join(work, 'watch');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const account = emulator.serviceAccount();
  const server = await startEmptySheetport('sheetport, watching', dir, {
    SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
    SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
    SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  try {
    const delays = await editDelays(server, emulator, account.client_email, plan.edits);
    const idle = await idleCost(server, emulator, account.client_email, plan);
    const result: WatchResult = {
      medianMs: median(delays),
      worstMs: Math.max(...delays),
      idle,
      targets: [
        target(
          'o. watch: worst delay from an edit to its webhook',
          '<=',
          15_000,
          Math.max(...delays),
          'ms',
        ),
      ],
    };
    print(`\n== ${title} ==`);
    print('sheetport serve on SQLite, default settings (interval 10 s, 60 Sheets reads a minute);');
    print(
      'the emulator in the bench process answers Sheets and Drive. Delays from the edit to the',
    );
    print(
      'webhook receiver having its event; edits one at a time, a random 0-3 s after the last delivery.',
    );
    print(
      `edit to webhook: median ${(result.medianMs / 1000).toFixed(1)} s, worst ${(result.worstMs / 1000).toFixed(1)} s over ${delays.length} edits`,
    );
    print(
      `${plan.idleTabs} idle watched tabs, ${plan.idleMinutes} min of real time measured, scaled to an hour:`,
    );
    print(
      `  Drive probes ${idle.probesPerHour.toFixed(0)}/h, Sheets values reads ${idle.readsPerHour.toFixed(0)}/h`,
    );
    return result;
  } finally {
    await server.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function editDelays(
  server: Server,
  emulator: GoogleSheetsEmulator,
  shareWith: string,
  edits: number,
): Promise<number[]> {
  const arrivals: { at: number; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body });
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  try {
    const spreadsheetId = emulator.createSpreadsheet({
      tabs: [
        {
          title: 'People',
          rows: [
            ['name', 'n'],
            ['Ann', 0],
          ],
        },
      ],
      sharedWith: [shareWith],
    });
    const id = await connect(server, spreadsheetId);
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await post(server, `/admin/v1/sheets/${id}/webhooks`, { url: hookUrl });
    const delays: number[] = [];
    for (let n = 1; n <= edits; n++) {
      await sleep(Math.random() * 3000);
      const before = arrivals.length;
      const editedAt = Date.now();
      emulator.editCell(spreadsheetId, 'People', 'B2', n);
      const deadline = editedAt + 60_000;
      while (arrivals.length === before) {
        if (Date.now() > deadline) throw new Error(`edit ${n}: no webhook within 60 s`);
        await sleep(20);
      }
      delays.push((arrivals[before]?.at ?? 0) - editedAt);
    }
    return delays;
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
}

async function idleCost(
  server: Server,
  emulator: GoogleSheetsEmulator,
  shareWith: string,
  plan: WatchPlan,
): Promise<WatchResult['idle']> {
  const spreadsheets: string[] = [];
  for (let i = 0; i < plan.idleTabs; i++) {
    const spreadsheetId = emulator.createSpreadsheet({
      tabs: [
        {
          title: 'Data',
          rows: [
            ['key', 'value'],
            [`k${i}`, i],
          ],
        },
      ],
      sharedWith: [shareWith],
    });
    const id = await connect(server, spreadsheetId);
    await patch(server, id, { watch: true });
    spreadsheets.push(spreadsheetId);
  }
  // Every tab's first check reads its values, within the watch budget (30 reads a minute): the
  // steady state starts once every tab has had it (a connect reads twice: its tabs, its values),
  // and one interval more.
  const readsOf = () => {
    const counts = new Map<string, number>();
    for (const r of emulator.stats().requests) {
      if (r.kind !== 'read' || r.path.startsWith('/drive/')) continue;
      const id = spreadsheets.find((candidate) => r.path.includes(candidate));
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  const warmUp = Date.now();
  while (!spreadsheets.every((id) => (readsOf().get(id) ?? 0) >= 3)) {
    if (Date.now() - warmUp > 15 * 60_000) throw new Error('the first reads took over 15 min');
    await sleep(1000);
  }
  log(`  every idle tab read by the watcher after ${((Date.now() - warmUp) / 1000).toFixed(0)} s`);
  await sleep(11_000);
  emulator.resetStats();
  await sleep(plan.idleMinutes * 60_000);
  const requests = emulator.stats().requests;
  const probes = requests.filter((r) => r.path.startsWith('/drive/')).length;
  const valueReads = requests.filter((r) => r.kind === 'read' && !r.path.startsWith('/drive/'));
  const perHour = 60 / plan.idleMinutes;
  return {
    minutes: plan.idleMinutes,
    probesPerHour: probes * perHour,
    readsPerHour: valueReads.length * perHour,
  };
}

async function connect(server: Server, spreadsheetId: string): Promise<string> {
  const { id } = (await post(server, '/admin/v1/sheets', {
    source: { provider: 'google', spreadsheetId },
    freshnessSeconds: 3600,
  })) as { id: string };
  return id;
}

async function post(server: Server, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function patch(server: Server, id: string, body: unknown): Promise<void> {
  const response = await fetch(`${server.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`PATCH ${id}: ${response.status} ${await response.text()}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
