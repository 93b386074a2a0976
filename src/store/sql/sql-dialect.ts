import { PushTagSql } from './push-tag-sql.ts';

/**
 * The engine's statements both dialects share, written once: sheets, rows and blocks, and push
 * tags, each concern a class of its own that extends the one before. A dialect extends
 * this with its driver (`sql`, its `Flavor`) and what its database does its own way, overriding a
 * statement where it has a better one; the other concerns it builds from modules (see README.md).
 */
export abstract class SqlDialect extends PushTagSql {}
