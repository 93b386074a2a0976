import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  startGraphEmulator,
  type AppCredentials,
  type GraphEmulator,
  type ItemRef,
  type WorksheetInput,
} from '../../test/graph-emulator/index.ts';
import { log } from './output.ts';
import { work } from './paths.ts';
import { startEmptySheetport, type Server } from './servers.ts';

/**
 * What the Excel cases share: a scratch directory, the Graph emulator (in this process) with an
 * app registered and one workbook, Sheetport servers started against it, a worksheet connected
 * as a sheet, and everything stopped and removed afterwards.
 */
export interface ExcelBench {
  emulator: GraphEmulator;
  app: AppCredentials;
  ref: ItemRef;
  /** Starts a Sheetport server on its own data directory; `settings` adds SHEETPORT_ variables. */
  startServer(name: string, settings?: Record<string, string>): Promise<Server>;
  /** Connects worksheet `tab` of the workbook through `server`; answers the sheet's id. */
  connect(server: Server, tab: string, name?: string): Promise<string>;
}

export interface ExcelBenchPlan {
  /** The case's folder under bench/.work and the prefix of its servers' names. */
  name: string;
  workbook: string;
  worksheets: WorksheetInput[];
}

/** Runs `body` with an ExcelBench, then stops its servers and the emulator and removes its files. */
export async function withExcelBench<T>(
  plan: ExcelBenchPlan,
  body: (bench: ExcelBench) => Promise<T>,
): Promise<T> {
  const dir = join(work, plan.name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startGraphEmulator();
  const servers: Server[] = [];
  try {
    const app = emulator.registerApp();
    const ref = emulator.createWorkbook({
      tenant: app.tenant,
      name: plan.workbook,
      worksheets: plan.worksheets,
    });
    const microsoft = {
      SHEETPORT_MICROSOFT_TENANT_ID: app.tenant,
      SHEETPORT_MICROSOFT_CLIENT_ID: app.clientId,
      SHEETPORT_MICROSOFT_CLIENT_SECRET: app.clientSecret,
      SHEETPORT_MICROSOFT_LOGIN_URL: emulator.loginUrl,
      SHEETPORT_MICROSOFT_GRAPH_URL: emulator.graphUrl,
    };
    return await body({
      emulator,
      app,
      ref,
      async startServer(name, settings = {}) {
        log(`starting ${name} against the Graph emulator`);
        const server = await startEmptySheetport(
          `${plan.name}, ${name}`,
          join(dir, `server-${servers.length + 1}`),
          { ...microsoft, ...settings },
        );
        servers.push(server);
        return server;
      },
      async connect(server, tab, name) {
        const created = await fetch(`${server.url}/admin/v1/sheets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ...(name === undefined ? {} : { name }),
            source: { provider: 'excel', drive: ref.driveId, item: ref.itemId, tab },
          }),
        });
        if (created.status !== 201) {
          throw new Error(`connecting answered ${created.status}: ${await created.text()}`);
        }
        return ((await created.json()) as { id: string }).id;
      },
    });
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}
