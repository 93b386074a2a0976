/**
 * Sheetport with its outbox taken out: row events are still made in memory, but never inserted.
 * Case m runs it beside the real thing to measure what the outbox costs a write; it must never
 * serve anyone, since change events, webhooks and the check of a lost commit all read the outbox.
 */
import { PostgresDialect } from '../../dist/store/postgres/postgres-dialect.js';
import { SqliteDialect } from '../../dist/store/sqlite/sqlite-dialect.js';

for (const Dialect of [SqliteDialect, PostgresDialect]) {
  Dialect.prototype.insertEvents = function* () {};
}
await import('../../dist/cli.js');
