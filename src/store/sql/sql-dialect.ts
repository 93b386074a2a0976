import { RowSql } from './row-sql.ts';

/**
 * The engine's statements both dialects share, written once: sheets, and rows with their blocks,
 * each concern a class of its own that extends the one before. A dialect extends this with its
 * driver (`sql`, its `Flavor`) and what its database does its own way, overriding a statement
 * where it has a better one; the other concerns it builds from modules (see README.md).
 */
export abstract class SqlDialect extends RowSql {}
