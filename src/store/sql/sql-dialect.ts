import { PushTagSql } from './push-tag-sql.ts';

/**
 * Every statement both dialects share, written once: sheets, rows and blocks, the outbox,
 * webhooks, keys and idempotency keys, each concern a class of its own that extends the one
 * before. A dialect extends this with its driver (`sql`, its `Flavor`) and what its database
 * does its own way, overriding a statement where it has a better one.
 */
export abstract class SqlDialect extends PushTagSql {}
