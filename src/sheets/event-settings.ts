/** How row events are kept and streamed; each is a setting (see the README). */
export interface EventSettings {
  /** How long an event is kept and served; older ones are never sent and are pruned. */
  retentionMs: number;
  /** How often a server prunes the outbox of events past the retention. */
  pruneIntervalMs: number;
  /** How often an idle stream sends a comment, so proxies and browsers keep it open. */
  heartbeatMs: number;
  /** How often a stream checks again that its caller may still read the sheet. */
  recheckMs: number;
  /** Data a client that stopped reading may leave unsent before it is disconnected. */
  maxUnsentBytes: number;
  /** Streams open at once from one client address, and on one server. */
  streamsPerAddress: number;
  streamsPerServer: number;
}

export const defaultEventSettings: EventSettings = {
  retentionMs: 7 * 24 * 3600 * 1000,
  pruneIntervalMs: 60_000,
  heartbeatMs: 15_000,
  recheckMs: 5000,
  maxUnsentBytes: 1_048_576,
  streamsPerAddress: 10,
  streamsPerServer: 2000,
};
