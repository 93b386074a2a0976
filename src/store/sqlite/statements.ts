import type Database from 'better-sqlite3';

/** Prepared statements cached by their text; SQL text never contains request data. */
export class Statements {
  readonly #cache = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let statement = this.#cache.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.#cache.size > 2000) this.#cache.clear();
      this.#cache.set(sql, statement);
    }
    return statement;
  }
}
