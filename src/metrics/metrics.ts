import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { UpstreamEvent } from '../providers/provider.ts';
import type { SheetStore } from '../store/store.ts';

/**
 * What `GET /metrics` shows, in the Prometheus text format: one registry per app, so that two
 * apps in one process (tests) count apart. Every name starts with `sheetport_`.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly #requests = new Counter({
    name: 'sheetport_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [this.registry],
  });

  readonly #requestSeconds = new Histogram({
    name: 'sheetport_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly #batchWrites = new Histogram({
    name: 'sheetport_write_batch_size',
    help: 'Writes committed together (group commit), by sheet kind',
    labelNames: ['kind'],
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
    registers: [this.registry],
  });

  readonly #upstream = new Counter({
    name: 'sheetport_upstream_requests_total',
    help: 'Requests to spreadsheet providers, by provider, read, write or probe (a spreadsheet version asked before a read), and outcome: ok, rate_limited (429), failed (for a probe: no version learned), or ambiguous (a write whose answer was lost)',
    labelNames: ['provider', 'request', 'outcome'],
    registers: [this.registry],
  });

  readonly #retries = new Counter({
    name: 'sheetport_upstream_retries_total',
    help: 'Requests to spreadsheet providers sent again after a failure, by provider and read or write',
    labelNames: ['provider', 'request'],
    registers: [this.registry],
  });

  readonly #cache = new Counter({
    name: 'sheetport_read_cache_lookups_total',
    help: 'Reads looked up in the read cache, by result: hit or miss',
    labelNames: ['result'],
    registers: [this.registry],
  });

  readonly #storeSeconds = new Histogram({
    name: 'sheetport_store_operation_duration_seconds',
    help: 'Time of each store operation (a read, a write transaction, a lookup), by operation',
    labelNames: ['operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly #webhookAttempts = new Counter({
    name: 'sheetport_webhook_deliveries_total',
    help: 'Attempts to deliver an event to a webhook, by outcome: delivered or failed',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly #watched = new Gauge({
    name: 'sheetport_watched_tabs',
    help: 'Mirrored tabs this server watches for changes made in their spreadsheet',
    registers: [this.registry],
  });

  readonly #watchProbes = new Counter({
    name: 'sheetport_watch_probes_total',
    help: 'Drive version probes of watched spreadsheets, by outcome: unchanged, changed, unknown (values read instead) or over_budget',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly #watchReads = new Counter({
    name: 'sheetport_watch_reads_total',
    help: 'Values reads of watched tabs, by outcome: changed, unchanged, failed, or over_budget (put off to a later tick)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly #watchLag = new Histogram({
    name: 'sheetport_watch_lag_seconds',
    help: 'From the detection of a change in a watched spreadsheet to the commit of its events',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly #watchCheckAge = new Gauge({
    name: 'sheetport_watch_check_age_seconds',
    help: 'The longest time since a watched tab was last checked: the interval, stretched when the read budget is short',
    registers: [this.registry],
  });

  constructor(sources: {
    /** Writes waiting for their turn, by sheet kind (scratch, upload, or a provider's name). */
    queueDepth: () => Map<string, number>;
    /** The store's database connections, where it has a pool. */
    connections: () => { total: number; idle: number; waiting: number } | null;
    /** Events waiting to be delivered to webhooks that are on. */
    webhookBacklog: () => Promise<number>;
  }) {
    new Gauge({
      name: 'sheetport_webhook_backlog',
      help: 'Events committed but not yet delivered to (or given up on by) the webhooks that are on',
      registers: [this.registry],
      async collect() {
        this.set(await sources.webhookBacklog());
      },
    });
    new Gauge({
      name: 'sheetport_write_queue_depth',
      help: 'Writes waiting for their turn, by sheet kind',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, depth] of sources.queueDepth()) this.set({ kind }, depth);
      },
    });
    new Gauge({
      name: 'sheetport_store_connections',
      help: 'PostgreSQL pool connections, by state: in_use, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.reset();
        const counts = sources.connections();
        if (counts === null) return;
        this.set({ state: 'in_use' }, counts.total - counts.idle);
        this.set({ state: 'idle' }, counts.idle);
        this.set({ state: 'waiting' }, counts.waiting);
      },
    });
  }

  request(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.#requests.inc(labels);
    this.#requestSeconds.observe(labels, seconds);
  }

  batch(kind: string, writes: number): void {
    this.#batchWrites.observe({ kind }, writes);
  }

  upstream(provider: string, event: UpstreamEvent): void {
    if (event.retry) this.#retries.inc({ provider, request: event.request });
    else this.#upstream.inc({ provider, request: event.request, outcome: event.outcome });
  }

  webhookAttempt(delivered: boolean): void {
    this.#webhookAttempts.inc({ outcome: delivered ? 'delivered' : 'failed' });
  }

  /** What the tab watcher reports, as its observer. */
  readonly watch = {
    watched: (count: number) => this.#watched.set(count),
    probe: (outcome: string) => this.#watchProbes.inc({ outcome }),
    read: (outcome: string) => this.#watchReads.inc({ outcome }),
    lag: (seconds: number) => this.#watchLag.observe(seconds),
    checkAge: (seconds: number) => this.#watchCheckAge.set(seconds),
  };

  cacheLookup(hit: boolean): void {
    this.#cache.inc({ result: hit ? 'hit' : 'miss' });
  }

  /** The store, with every operation it answers with a promise timed. */
  timed(store: SheetStore): SheetStore {
    const seconds = this.#storeSeconds;
    return new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function' || typeof name !== 'string') return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (!(result instanceof Promise)) return result;
          const stop = seconds.startTimer({ operation: name });
          return result.finally(stop);
        };
      },
    });
  }
}
