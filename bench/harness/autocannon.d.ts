// autocannon ships no types; this declares the part of its programmatic API the benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Request {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    /**
     * Called with each response; `context` is the one `setupRequest` was given for the request
     * this answers (with pipelining 1, a connection has one request in flight).
     */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Requests to send, instead of a duration: the run ends once every one is answered. */
    amount?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    requests?: Request[];
    /** Requests per second across all connections, at most. */
    overallRate?: number;
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    /** Seconds the run actually lasted. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds. */
    latency: Histogram;
    /** Per-second samples; `total` is the count of completed requests. */
    requests: Histogram;
    throughput: Histogram;
  }

  export default function autocannon(
    options: Options,
    done: (error: Error | null, result: Result) => void,
  ): EventEmitter;
}
