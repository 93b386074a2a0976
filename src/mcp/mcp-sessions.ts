import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Identity } from '../access/access-control.ts';
import type { Sheets } from '../sheets/sheets.ts';
import { Subscriptions, type Notify } from './subscriptions.ts';

/** Sessions one server keeps; opening one more closes the one idle longest. */
export const maxSessions = 1000;
/** A session no request has used for this long is closed, its subscriptions with it. */
export const sessionIdleMs = 30 * 60_000;

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  owner: string;
  subscriptions: Subscriptions;
  lastUsed: number;
  /** Standalone streams open (GET): a session someone follows is never idle. */
  streams: number;
}

/** Whose a session is: the administrator's, or an API key's; another credential cannot use it. */
export const ownerOf = (identity: Identity) =>
  identity.kind === 'admin' ? 'admin' : `key:${identity.keyId}`;

/**
 * The MCP sessions this server opened. A session holds what must live somewhere between
 * requests: the standalone stream notifications go out on, and the subscriptions that feed it.
 * Tools need none of it, so a request naming a session this server does not know is served
 * without one (see mcp-routes.ts).
 */
export class McpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #sweep: NodeJS.Timeout;

  constructor(private readonly sheets: Sheets) {
    this.#sweep = setInterval(() => this.#closeIdle(), 60_000).unref();
  }

  get(id: string, identity: Identity): Session | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined || session.owner !== ownerOf(identity)) return undefined;
    session.lastUsed = Date.now();
    return session;
  }

  /** A session whose id the transport makes when its `initialize` is answered. */
  open(
    identity: Identity,
    makeServer: (subscriptions: Subscriptions) => Server,
    notify: (server: Server) => Notify,
  ): Session {
    if (this.#sessions.size >= maxSessions) this.#closeLeastRecent();
    const subscriptions: Subscriptions = new Subscriptions(this.sheets, (uri) =>
      notify(server)(uri),
    );
    const server = makeServer(subscriptions);
    const session: Session = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void this.#sessions.set(id, session),
        onsessionclosed: (id) => this.#close(id),
      }),
      server,
      owner: ownerOf(identity),
      subscriptions,
      lastUsed: Date.now(),
      streams: 0,
    };
    return session;
  }

  closeAll(): void {
    clearInterval(this.#sweep);
    for (const id of [...this.#sessions.keys()]) this.#close(id);
  }

  #close(id: string): void {
    const session = this.#sessions.get(id);
    if (session === undefined) return;
    this.#sessions.delete(id);
    session.subscriptions.clear();
    void session.server.close().catch(() => undefined);
  }

  #closeIdle(): void {
    const before = Date.now() - sessionIdleMs;
    for (const [id, session] of this.#sessions)
      if (session.streams === 0 && session.lastUsed < before) this.#close(id);
  }

  #closeLeastRecent(): void {
    let oldest: [string, number] | null = null;
    for (const [id, session] of this.#sessions) {
      if (oldest === null || session.lastUsed < oldest[1]) oldest = [id, session.lastUsed];
    }
    if (oldest !== null) this.#close(oldest[0]);
  }
}
