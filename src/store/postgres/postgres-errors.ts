import { storeUnavailable } from '../dialect.ts';

/** Node's socket errors and PostgreSQL's own codes for a server that is gone or refusing. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** The pool's and driver's words for a connection that could not be had or was cut. */
const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Connection refused|the database system is (starting up|shutting down|not yet accepting connections|in recovery mode)/i;

/** Whether an error says the database could not be reached, rather than that SQL failed. */
export function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && connectionCodes.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnreachable);
  return typeof message === 'string' && connectionMessages.test(message);
}

/** An error that says the database could not be reached, as the store's answer to that. */
export function unreachableAs(error: unknown): unknown {
  return isUnreachable(error) ? storeUnavailable() : error;
}
