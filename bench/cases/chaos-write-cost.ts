import { join } from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import { startGoogleSheetsEmulator } from '../../test/google-emulator/index.ts';
import { connect } from './google-case.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';

/**
 * Case k's cost of writes that choose rows, with nothing going wrong: Google write (and read)
 * requests per acknowledged PATCH by filter, first when every PATCH targets a row no write
 * chose before ("fresh rows": each needs its anchors made), then when each targets a row an
 * earlier PATCH chose ("anchored rows"). Same quota as case k (60 write requests a minute),
 * Google's defaults in Sheetport, SQLite; no faults, no person.
 */
export interface WriteCostPlan {
  writers: number;
  /** Rows of the tab: the fresh phase ends when each has been chosen once, or at `seconds`. */
  rows: number;
  seconds: number;
}

export interface WriteCost {
  phase: 'fresh rows' | 'anchored rows';
  acknowledged: number;
  failed: number;
  writeRequests: number;
  readRequests: number;
  seconds: number;
}

const tab = 'Cost';

export async function chaosWriteCost(plan: WriteCostPlan): Promise<WriteCost[]> {
  log(`  write cost: ${plan.writers} writers PATCHing ${plan.rows} rows`);
  const dir = join(work, 'chaos-cost');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startGoogleSheetsEmulator();
  let server: Server | null = null;
  try {
    emulator.quota = { writesPerWindow: 60, windowMs: 60_000 };
    const account = emulator.serviceAccount();
    const rows = Array.from({ length: plan.rows }, (_, i) => [`r${i}`, 0]);
    const spreadsheetId = emulator.createSpreadsheet({
      title: 'Bench write cost',
      tabs: [{ title: tab, rows: [['id', 'n'], ...rows] }],
      sharedWith: [account.client_email],
    });
    server = await startEmptySheetport('sheetport, write cost', join(dir, 'data'), {
      SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
      SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
      SHEETPORT_CACHE_SIZE: '0',
    });
    const sheetId = await connect(server.url, spreadsheetId, { freshnessSeconds: 86_400 });
    const url = `${server.url}/api/v1/${sheetId}`;
    const chosen: number[] = [];
    let next = 0;
    const fresh = await phase('fresh rows', plan, url, emulator, () => {
      if (next >= plan.rows) return null;
      chosen.push(next);
      return next++;
    });
    let again = 0;
    const anchored = await phase('anchored rows', plan, url, emulator, () => {
      const row = chosen[again % chosen.length] ?? null;
      again++;
      return row;
    });
    return [fresh, anchored];
  } finally {
    await server?.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function phase(
  name: WriteCost['phase'],
  plan: WriteCostPlan,
  url: string,
  emulator: Awaited<ReturnType<typeof startGoogleSheetsEmulator>>,
  pick: () => number | null,
): Promise<WriteCost> {
  emulator.resetStats();
  const started = performance.now();
  const stopAt = started + plan.seconds * 1000;
  let acknowledged = 0;
  let failed = 0;
  const writer = async () => {
    for (;;) {
      if (performance.now() >= stopAt) return;
      const row = pick();
      if (row === null) return;
      const response = await fetch(`${url}?id=r${row}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: name === 'fresh rows' ? 1 : 2 }),
      });
      await response.text();
      if (response.status === 200) acknowledged++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: plan.writers }, writer));
  const requests = emulator.stats().requests;
  return {
    phase: name,
    acknowledged,
    failed,
    writeRequests: requests.filter((request) => request.kind === 'write').length,
    readRequests: requests.filter((request) => request.kind === 'read').length,
    seconds: (performance.now() - started) / 1000,
  };
}

export function printWriteCost(costs: WriteCost[]): void {
  print('\nk. write cost: Google requests per acknowledged PATCH by filter (no faults, no person)');
  for (const cost of costs) {
    const per = (n: number) => (cost.acknowledged === 0 ? '-' : (n / cost.acknowledged).toFixed(3));
    print(
      `${cost.phase.padEnd(14)} ${cost.acknowledged} acknowledged (${cost.failed} not) in ${cost.seconds.toFixed(1)} s; ` +
        `${cost.writeRequests} write requests (${per(cost.writeRequests)} per write), ` +
        `${cost.readRequests} reads (${per(cost.readRequests)} per write)`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [writers = 20, rows = 300, seconds = 30] = process.argv.slice(2).map(Number);
  printWriteCost(await chaosWriteCost({ writers, rows, seconds }));
}
