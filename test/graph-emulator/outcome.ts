/**
 * What the client gets and what the log keeps of one request, and the answers a refusal or an
 * injected fault puts in place of the request's own.
 */
import { GraphError, statusError } from './errors.ts';
import type { Fault } from './faults.ts';
import type { RequestRecord } from './traffic.ts';

/** What the client gets and what the log keeps of one request. */
export interface Outcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  answer: RequestRecord['answer'];
  applied: boolean;
  record: Omit<RequestRecord, 'at' | 'method' | 'path' | 'status' | 'answer' | 'applied'>;
  /** A `late` fault: runs the request when the emulator lets it land, whoever still listens. */
  late?: { run: () => { status: number; applied: boolean }; afterMs: number | undefined };
}

export function refused(error: unknown, record: Outcome['record']): Outcome {
  if (!(error instanceof GraphError)) throw error;
  const { status, headers } = error;
  return { status, body: error.body(), headers, answer: 'http', applied: false, record };
}

/** The answer a fault gives in place of the request's own; whatever ran stays applied. */
export function faulted(
  fault: Exclude<Fault, { mode: 'late' }>,
  ran: Pick<Outcome, 'applied' | 'record'>,
): Outcome {
  const record = { ...ran.record, fault: { when: fault.when, mode: fault.mode } };
  if (fault.mode === 'status') {
    const error = statusError(fault.status, fault.retryAfterSeconds);
    return {
      status: error.status,
      body: error.body(),
      headers: error.headers,
      answer: 'http',
      applied: ran.applied,
      record,
    };
  }
  return {
    status: 0,
    answer: fault.mode === 'reset' ? 'reset' : 'none',
    applied: ran.applied,
    record,
  };
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
