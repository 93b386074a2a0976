import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startGoogleSheetsEmulator, type FaultRates } from '../../test/google-emulator/index.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { problemCode, writerColumns, type Sent } from '../harness/writers.ts';
import { targetLine, type TargetOutcome } from '../reports/targets.ts';
import { connect, verify, type Verification } from './google-case.ts';

/**
 * Case t: 50 AI agents (the MCP SDK's client, over Streamable HTTP) adding rows to one Google
 * sheet under the emulated write quota, with 429s, 5xx and lost answers injected; beside them,
 * in the same run, 50 REST clients doing the same with `Idempotency-Key`. Both retry a write
 * whose outcome they did not learn with the same key, as a careful client does; the sheet is
 * then checked row by row. Run alone: `node --import tsx bench/cases/agents-case.ts [seconds]`.
 */

export interface AgentsPlan {
  writers: number;
  seconds: number;
}

const faults: FaultRates = {
  status429: 0.05,
  status500: 0.02,
  status503: 0.02,
  after503: 0.02,
  afterReset: 0.02,
  seed: 43,
};

interface Leg {
  via: 'mcp' | 'rest';
  acknowledged: number;
  perMinute: number;
  retries: number;
  verification: Verification;
}

/** A write's outcome: acknowledged, refused for good, or unknown (retry with the same key). */
type Attempt = { status: number; code: string | undefined };

const retryable = (attempt: Attempt) =>
  attempt.status === 0 || attempt.status === 409 || attempt.status === 429 || attempt.status >= 500;

/** Writes one row until its outcome is known, retrying with its key; answers the final attempt. */
async function writeOnce(
  send: () => Promise<Attempt>,
  deadline: number,
  retried: () => void,
): Promise<Attempt> {
  for (;;) {
    const attempt = await send();
    if (!retryable(attempt) || performance.now() > deadline) return attempt;
    retried();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function restWrite(url: string, body: object, key: string): Promise<Attempt> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `"${key}"` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    return {
      status: response.status,
      code: response.status === 201 ? undefined : problemCode(text),
    };
  } catch (error) {
    return { status: 0, code: error instanceof Error ? error.message : String(error) };
  }
}

/** A tool error's status, read off its text (`code (status): ...`); 0 when the call failed. */
function toolAttempt(result: CallToolResult): Attempt {
  if (result.isError !== true) return { status: 201, code: undefined };
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
  const match = /^([a-z-]+) \((\d{3})\)/.exec(text);
  return match === null
    ? { status: 400, code: text.slice(0, 40) }
    : { status: Number(match[2]), code: match[1] };
}

async function runLeg(
  via: 'mcp' | 'rest',
  plan: AgentsPlan,
  server: Server,
  sheetId: string,
): Promise<{ sent: Sent[]; retries: number }> {
  const sent: Sent[] = [];
  let retries = 0;
  const start = performance.now();
  const stopAt = start + plan.seconds * 1000;
  const rowsUrl = `${server.url}/api/v1/${sheetId}`;
  const writer = async (id: number) => {
    let client: Client | null = null;
    if (via === 'mcp') {
      client = new Client({ name: `agent-${id}`, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    }
    try {
      for (let seq = 0; performance.now() < stopAt; seq++) {
        const at = new Date().toISOString();
        const row = { writer: id, seq, at };
        const key = `${via}-${id}-${seq}`;
        const startMs = performance.now() - start;
        const send = async (): Promise<Attempt> => {
          if (client === null) return restWrite(rowsUrl, row, key);
          try {
            const result = (await client.callTool(
              {
                name: 'add_rows',
                arguments: { sheet: sheetId, rows: [row], idempotency_key: key },
              },
              undefined,
              { timeout: 120_000 },
            )) as CallToolResult;
            return toolAttempt(result);
          } catch (error) {
            return { status: 0, code: error instanceof Error ? error.message : String(error) };
          }
        };
        const final = await writeOnce(send, stopAt + 60_000, () => retries++);
        sent.push({ writer: id, seq, at, ...final, startMs, endMs: performance.now() - start });
      }
    } finally {
      await client?.close();
    }
  };
  await Promise.all(Array.from({ length: plan.writers }, (_, id) => writer(id)));
  return { sent, retries };
}

export async function agentsCase(
  plan: AgentsPlan,
): Promise<{ legs: Leg[]; targets: TargetOutcome[] }> {
  const title = `t. AI agents: ${plan.writers} MCP clients beside ${plan.writers} REST clients, one Google sheet each, under the quota and injected faults`;
  log(`\n${title}`);
  const dir = join(work, 'agents');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const legs: Leg[] = [];
  // The REST leg first, then MCP, each on an emulator and server of its own, same faults.
  for (const via of ['rest', 'mcp'] as const) {
    const emulator = await startGoogleSheetsEmulator();
    let server: Server | null = null;
    try {
      emulator.quota = { writesPerWindow: 60, windowMs: 60_000 };
      const account = emulator.serviceAccount();
      const spreadsheetId = emulator.createSpreadsheet({
        title: `Agents ${via}`,
        tabs: [{ title: 'Writes', rows: [writerColumns] }],
        sharedWith: [account.client_email],
      });
      server = await startEmptySheetport(`sheetport, ${via}`, join(dir, via), {
        SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
        SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
        SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
        SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
      });
      const sheetId = await connect(server.url, spreadsheetId);
      emulator.faultRates = faults;
      log(`  ${via}: ${plan.writers} writers for ${plan.seconds} s`);
      const { sent, retries } = await runLeg(via, plan, server, sheetId);
      emulator.faultRates = null;
      const elapsedSeconds = Math.max(...sent.map((request) => request.endMs)) / 1000;
      const acknowledged = sent.filter((request) => request.status === 201).length;
      legs.push({
        via,
        acknowledged,
        perMinute: (acknowledged / elapsedSeconds) * 60,
        retries,
        verification: verify(sent, emulator.rows(spreadsheetId, 'Writes')),
      });
    } finally {
      await server?.stop();
      await emulator.close();
    }
  }
  await rm(dir, { recursive: true, force: true });
  print(`\n== ${title} ==`);
  print(`faults per write request: ${JSON.stringify(faults)}; quota 60 writes a minute`);
  print('| client | acknowledged | a minute | retries | missing | doubled | refused but written |');
  print('| --- | --- | --- | --- | --- | --- | --- |');
  for (const leg of legs) {
    const v = leg.verification;
    print(
      `| ${leg.via} | ${leg.acknowledged} | ${leg.perMinute.toFixed(0)} | ${leg.retries} | ${v.missing} | ${v.duplicated} | ${v.refusedButWritten} |`,
    );
  }
  const [rest, mcp] = legs as [Leg, Leg];
  const lost = legs.reduce(
    (sum, leg) => sum + leg.verification.missing + leg.verification.unknown,
    0,
  );
  const doubled = legs.reduce((sum, leg) => sum + leg.verification.duplicated, 0);
  const targets: TargetOutcome[] = [
    {
      what: 't. MCP acknowledged writes a minute ÷ REST',
      comparison: '>=',
      goal: 0.9,
      measured: mcp.perMinute / rest.perMinute,
      unit: 'times',
      met: mcp.perMinute / rest.perMinute >= 0.9,
      detail: `${mcp.perMinute.toFixed(0)} ÷ ${rest.perMinute.toFixed(0)} a minute`,
    },
    {
      what: 't. rows lost (acknowledged but missing, or not sent by anyone)',
      comparison: '=',
      goal: 0,
      measured: lost,
      unit: 'count',
      met: lost === 0,
    },
    {
      what: 't. rows doubled',
      comparison: '=',
      goal: 0,
      measured: doubled,
      unit: 'count',
      met: doubled === 0,
    },
  ];
  return { legs, targets };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [seconds = 60] = process.argv.slice(2).map(Number);
  const { targets } = await agentsCase({ writers: 50, seconds });
  print();
  for (const outcome of targets) print(targetLine(outcome));
}
