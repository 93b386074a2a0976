/**
 * Case e, Excel: many clients writing to a sheet mirrored from an Excel worksheet, through the
 * Microsoft Graph emulator (in this process) with a per-application throttling limit. Every
 * answer is recorded, and afterwards the worksheet is checked row by row against what was sent
 * and acknowledged: no acknowledged row missing, none twice, none refused but written.
 *
 * Run alone (after `npm run build`): `node --import tsx bench/cases/excel-case.ts [writers]
 * [seconds] [Graph requests per minute] [SHEETPORT_MICROSOFT_WRITES_PER_MINUTE]`.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startGraphEmulator } from '../../test/graph-emulator/index.ts';
import { work } from '../paths.ts';
import { startEmptySheetport, type Server } from '../servers.ts';

export interface ExcelPlan {
  writers: number;
  /** How long new requests are started; the ones in flight then are waited for. */
  seconds: number;
  /** Graph requests the emulator lets the application make per minute (each counts). */
  requestsPerMinute: number;
  /** SHEETPORT_ variables beyond the connection to the emulator. */
  settings: Record<string, string>;
}

export interface ExcelResult {
  plan: ExcelPlan;
  elapsedSeconds: number;
  requests: number;
  acknowledged: number;
  acknowledgedPerMinute: number;
  refusals: Record<string, number>;
  latency: { p50Ms: number; p99Ms: number; maxMs: number };
  upstream: { requests: number; writes: number; throttled: number; rowsPerWrite: number };
  verification: {
    rows: number;
    missing: number;
    duplicated: number;
    refusedButWritten: number;
    ok: boolean;
  };
}

interface Sent {
  writer: number;
  seq: number;
  status: number;
  code: string | undefined;
  ms: number;
}

export async function excelWriteCase(
  plan: ExcelPlan,
  log: (line: string) => void,
): Promise<ExcelResult> {
  const dir = join(work, 'excel');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const emulator = await startGraphEmulator();
  let server: Server | null = null;
  try {
    const app = emulator.registerApp();
    const ref = emulator.createWorkbook({
      tenant: app.tenant,
      name: 'Bench.xlsx',
      worksheets: [{ name: 'Writes', rows: [['writer', 'seq']] }],
    });
    log('starting sheetport against the Graph emulator');
    server = await startEmptySheetport('sheetport, excel', join(dir, 'sheetport'), {
      SHEETPORT_MICROSOFT_TENANT_ID: app.tenant,
      SHEETPORT_MICROSOFT_CLIENT_ID: app.clientId,
      SHEETPORT_MICROSOFT_CLIENT_SECRET: app.clientSecret,
      SHEETPORT_MICROSOFT_LOGIN_URL: emulator.loginUrl,
      SHEETPORT_MICROSOFT_GRAPH_URL: emulator.graphUrl,
      ...plan.settings,
    });
    const created = await fetch(`${server.url}/admin/v1/sheets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        source: { provider: 'excel', drive: ref.driveId, item: ref.itemId, tab: 'Writes' },
      }),
    });
    if (created.status !== 201) {
      throw new Error(`connecting answered ${created.status}: ${await created.text()}`);
    }
    const { id } = (await created.json()) as { id: string };
    emulator.throttle = { requestsPerWindow: plan.requestsPerMinute, windowMs: 60_000 };
    emulator.resetRequests();
    log(
      `  ${plan.writers} writers for ${plan.seconds} s, Graph limit ${plan.requestsPerMinute}/min`,
    );
    const start = performance.now();
    const sent = await runWriters(`${server.url}/api/v1/${id}`, plan);
    const elapsedSeconds = (performance.now() - start) / 1000;
    const upstream = emulator.requests();
    const rows = emulator.values(ref, 'Writes').slice(1);
    return summarize(plan, sent, elapsedSeconds, upstream, rows);
  } finally {
    await server?.stop();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function runWriters(rowsUrl: string, plan: ExcelPlan): Promise<Sent[]> {
  const sent: Sent[] = [];
  const stopAt = performance.now() + plan.seconds * 1000;
  const writer = async (id: number) => {
    for (let seq = 0; performance.now() < stopAt; seq++) {
      const began = performance.now();
      let status = 0;
      let code: string | undefined;
      try {
        const response = await fetch(rowsUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ writer: id, seq }),
          signal: AbortSignal.timeout(300_000),
        });
        const text = await response.text();
        status = response.status;
        if (status !== 201) code = (JSON.parse(text) as { code?: string }).code;
      } catch (error) {
        code = error instanceof Error ? error.message : String(error);
      }
      sent.push({ writer: id, seq, status, code, ms: performance.now() - began });
    }
  };
  await Promise.all(Array.from({ length: plan.writers }, (_, id) => writer(id)));
  return sent;
}

function summarize(
  plan: ExcelPlan,
  sent: Sent[],
  elapsedSeconds: number,
  upstream: { method: string; status: number; applied: boolean }[],
  rows: (string | number | boolean)[][],
): ExcelResult {
  const key = (writer: unknown, seq: unknown) => `${String(writer)}:${String(seq)}`;
  const copies = new Map<string, number>();
  for (const [writer, seq] of rows)
    copies.set(key(writer, seq), (copies.get(key(writer, seq)) ?? 0) + 1);
  const acknowledged = sent.filter((s) => s.status === 201);
  const missing = acknowledged.filter((s) => !copies.has(key(s.writer, s.seq))).length;
  const refusedButWritten = sent.filter(
    (s) => s.status !== 201 && s.status !== 0 && copies.has(key(s.writer, s.seq)),
  ).length;
  const duplicated = [...copies.values()].reduce((sum, count) => sum + count - 1, 0);
  const refusals: Record<string, number> = {};
  for (const s of sent) {
    if (s.status === 201) continue;
    const label = `${s.status} ${s.code ?? ''}`.trim();
    refusals[label] = (refusals[label] ?? 0) + 1;
  }
  const latencies = sent.map((s) => s.ms).sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  const writes = upstream.filter((r) => r.method === 'PATCH' && r.applied);
  return {
    plan,
    elapsedSeconds: Math.round(elapsedSeconds * 10) / 10,
    requests: sent.length,
    acknowledged: acknowledged.length,
    acknowledgedPerMinute: Math.round((acknowledged.length / elapsedSeconds) * 60),
    refusals,
    latency: { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(latencies.at(-1) ?? 0) },
    upstream: {
      requests: upstream.length,
      writes: writes.length,
      throttled: upstream.filter((r) => r.status === 429).length,
      rowsPerWrite: writes.length === 0 ? 0 : Math.round((rows.length / writes.length) * 10) / 10,
    },
    verification: {
      rows: rows.length,
      missing,
      duplicated,
      refusedButWritten,
      ok: missing + duplicated + refusedButWritten === 0,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [writers = 50, seconds = 30, limit = 120, pushes] = process.argv.slice(2).map(Number);
  const settings =
    pushes === undefined ? {} : { SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: String(pushes) };
  const result = await excelWriteCase(
    { writers, seconds, requestsPerMinute: limit, settings },
    (line) => console.error(line),
  );
  console.log(JSON.stringify(result, null, 2));
}
