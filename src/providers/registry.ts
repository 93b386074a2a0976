import type { TSchema } from '@sinclair/typebox';
import { Problem } from '../errors/problem.ts';
import type { EveryTab } from '../files/every-tab.ts';
import { isMirrored, type MirroredSource, type SheetSource } from '../model/sheet.ts';
import type { ProviderTable, SheetProvider, UpstreamEvent } from './provider.ts';
import type { ProviderSignIn } from './sign-in.ts';

/** What a user asked to connect, as a provider reads the `source` of `POST /admin/v1/sheets`. */
export interface ConnectRequest {
  /** The spreadsheet or workbook, by the provider's own id for it. */
  document: string;
  /** The tab's title: the first tab when absent, every tab when `*`. */
  tab?: string | undefined;
}

/** A tab, as connecting and watching tell tabs apart whatever the provider. */
export interface TabRef {
  /** The spreadsheet or workbook holding it: its tabs connect one at a time, and share a probe. */
  document: string;
  /** The tab's id in its document, which stays the same when the tab is renamed. */
  id: string;
  /** Its title, as last read. */
  title: string;
}

/** A provider's entry in `GET /admin/v1/providers`: whether it is configured, and its details. */
export interface ProviderStatus {
  configured: boolean;
  readonly [detail: string]: unknown;
}

/** What watching a provider's tabs takes: its own quota, and a cheap look for changes. */
export interface WatchSupport {
  /** A document's change marker; null when unknown, and then the tab's values are read. */
  probe: ((document: string) => Promise<string | null>) | null;
  /** What watching may spend of the provider's quota, fed every upstream request it makes. */
  budget: {
    observe(event: UpstreamEvent): void;
    mayWatchRead(): boolean;
    takeProbe(): boolean;
    rateLimited(): void;
  };
}

/** A provider this server is configured to reach: the live connection behind its sheets. */
export interface LiveProvider extends SheetProvider {
  /** Finds the tab a user named (the first tab when none) and reads it whole. */
  connect(request: ConnectRequest): Promise<ProviderTable>;
  /** Reads every tab of a document, for `tab=*`, with the document's title. */
  connectEveryTab(document: string): Promise<{ title: string; tabs: EveryTab<ProviderTable> }>;
  /** Its entry in `GET /admin/v1/providers`, with `configured: true`. */
  status(): ProviderStatus;
  /** How its tabs can be watched for changes made in the spreadsheet; absent: they cannot. */
  watching?(): WatchSupport;
  /** One line for the server's log once it listens: what it can do, as whom. */
  describe(): string;
}

/**
 * One spreadsheet service, as its package under `providers/<name>/` describes it, whether or
 * not this server is configured to reach it: nothing outside that package knows its specifics.
 */
export interface ProviderKind {
  /** The `provider` of its sources, as stored and as a user gives it (`google`). */
  readonly name: string;
  /** Its name for people, in messages (`Google`). */
  readonly label: string;
  /** JSON Schema of the `source` of `POST /admin/v1/sheets`; `provider` holds the name. */
  readonly requestSchema: TSchema;
  /** JSON Schema of a sheet's stored `source`, as the management API describes it. */
  readonly sourceSchema: TSchema;
  /** JSON Schema of its entry in `GET /admin/v1/providers`. */
  readonly statusSchema: TSchema;
  /** Its entry in `GET /admin/v1/providers` when it is not configured. */
  readonly unconfigured: ProviderStatus;
  /** How to configure it, for the `provider-not-configured` problem. */
  readonly setupHint: string;
  /** How to configure its sign-in as a user, when it offers one; absent when it offers none. */
  readonly signInHint?: string;
  /** Reads a `source` that matched `requestSchema`; a Problem (400) for one it cannot use. */
  parseSource(source: Record<string, unknown>): ConnectRequest;
  /** The tab a stored source of this provider mirrors. */
  tabOf(source: MirroredSource): TabRef;
}

/**
 * Every provider this server knows, looked up by the name a sheet's source holds, with the live
 * connection of those configured. Built once, from the configuration, in server.ts.
 */
export class ProviderRegistry {
  readonly #kinds: Map<string, ProviderKind>;
  readonly #live: Map<string, LiveProvider>;
  readonly #signIns: Map<string, ProviderSignIn>;

  constructor(
    kinds: readonly ProviderKind[],
    live: ReadonlyMap<string, LiveProvider> = new Map(),
    signIns: ReadonlyMap<string, ProviderSignIn> = new Map(),
  ) {
    this.#kinds = new Map(kinds.map((kind) => [kind.name, kind]));
    for (const name of live.keys()) {
      if (!this.#kinds.has(name)) throw new Error(`provider "${name}" is not a known kind`);
    }
    for (const name of signIns.keys()) {
      if (this.#kinds.get(name)?.signInHint === undefined) {
        throw new Error(`provider "${name}" offers no sign-in`);
      }
    }
    this.#live = new Map(live);
    this.#signIns = new Map(signIns);
  }

  /** Every known provider, configured or not, in the order they were listed. */
  kinds(): ProviderKind[] {
    return [...this.#kinds.values()];
  }

  /** The configured providers, by name. */
  configured(): [string, LiveProvider][] {
    return [...this.#live];
  }

  /** The known provider of that name; a 400 `unknown-provider` naming the known ones if none. */
  kind(name: string): ProviderKind {
    const kind = this.#kinds.get(name);
    if (kind !== undefined) return kind;
    const known = [...this.#kinds.keys()];
    throw new Problem(
      'unknown-provider',
      `There is no spreadsheet provider "${name}"; the known ones are ${known.map((k) => `"${k}"`).join(', ')}. An uploaded file is sent as a multipart form, a sheet from scratch without a source.`,
      { providers: known },
    );
  }

  /** The configured provider of that name; a 400 `provider-not-configured` when it is not. */
  live(name: string): LiveProvider {
    const kind = this.kind(name);
    const live = this.#live.get(name);
    if (live !== undefined) return live;
    throw new Problem(
      'provider-not-configured',
      `This server has no ${kind.label} access configured: ${kind.setupHint}`,
    );
  }

  /** The configured provider a sheet's source names; null for a sheet the store alone holds. */
  providerOf(source: SheetSource): LiveProvider | null {
    return isMirrored(source) ? (this.#live.get(source.provider) ?? null) : null;
  }

  /** The tab a mirrored source names, as its provider tells; null for one the store alone holds. */
  tabOf(source: SheetSource): TabRef | null {
    return isMirrored(source) ? (this.#kinds.get(source.provider)?.tabOf(source) ?? null) : null;
  }

  /** `GET /admin/v1/providers`: every known provider's entry, by name. */
  statuses(): Record<string, ProviderStatus> {
    return Object.fromEntries(
      this.kinds().map(({ name, unconfigured }) => [
        name,
        this.#live.get(name)?.status() ?? unconfigured,
      ]),
    );
  }

  /**
   * The sign-in of a provider that offers one: null when it is not configured; a 404
   * `route-not-found` for a provider unknown or offering none, as for any path that is not served.
   */
  signIn(name: string): ProviderSignIn | null {
    const kind = this.#kinds.get(name);
    if (kind?.signInHint !== undefined) return this.#signIns.get(name) ?? null;
    const offering = this.kinds().filter((k) => k.signInHint !== undefined);
    const which =
      kind === undefined
        ? `There is no spreadsheet provider "${name}"`
        : `${kind.label} offers no sign-in`;
    throw new Problem(
      'route-not-found',
      `${which}; the providers one signs in to are ${offering.map((k) => `"${k.name}"`).join(', ')}.`,
      { providers: offering.map((k) => k.name) },
    );
  }

  /** The configured sign-in of a provider; a 400 `provider-not-configured` when it is not. */
  configuredSignIn(name: string): ProviderSignIn {
    const signIn = this.signIn(name);
    if (signIn !== null) return signIn;
    const kind = this.kind(name);
    throw new Problem(
      'provider-not-configured',
      `This server cannot sign in to ${kind.label}: ${kind.signInHint ?? kind.setupHint}`,
    );
  }

  /** Stops what the providers do in the background (a sign-in under way), as the server closes. */
  close(): void {
    for (const signIn of this.#signIns.values()) signIn.close();
  }
}
