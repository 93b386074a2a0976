import { sheetSql, toSheet, type SheetRow, type SheetStatements } from '../sql/sheet-sql.ts';
import { nameable } from '../sql/sql.ts';
import type { SheetRecord } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { postgresFlavor, postgresSql } from './postgres-sql.ts';

/** Sheets whose last lookup a server keeps, least recently read first out. */
const seenSheets = 10_000;

/**
 * Sheets' shared statements, but imports that have not finished within an hour are taken to
 * have crashed (other servers may be importing), new keys come from the table's sequence, and
 * the lookup of several sheets keeps what it has seen (below).
 */
export function postgresSheets(): SheetStatements {
  /** Sheets as last looked up, with a digest of the row they were read from. */
  const seen = new Map<string, { digest: string; sheet: SheetRecord }>();
  return {
    ...sheetSql(postgresSql, ` AND created_at < now() - interval '1 hour'`),

    /**
     * Each sheet comes with a digest of its row; a sheet read before whose digest is unchanged
     * is answered with the record kept from then, so the common lookup (a sheet nobody changed)
     * sends and parses a few bytes per sheet instead of its whole row.
     */
    *sheetsById(ids: string[]): DbWork<SheetRecord[]> {
      const asked = ids.filter(nameable);
      const known = asked.map((id) => seen.get(id));
      const rows = yield* postgresSql.rows<{ i: number; digest: string; record: string | null }>(
        `SELECT k.i, d.digest, CASE WHEN d.digest = k.digest THEN NULL ELSE row_to_json(s)::text END AS record
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(id, digest, i)
         JOIN sheets s ON s.id = k.id AND s.state = 'ready', LATERAL (SELECT md5(s::text) AS digest) d`,
        [asked, known.map((kept) => kept?.digest ?? '')],
      );
      return rows.map(({ i, digest, record }) => {
        const kept = known[i - 1];
        const sheet =
          record === null && kept !== undefined
            ? kept.sheet
            : toSheet(postgresFlavor, JSON.parse(record as string) as SheetRow);
        seen.delete(sheet.id);
        seen.set(sheet.id, { digest, sheet });
        if (seen.size > seenSheets) seen.delete(seen.keys().next().value as string);
        return sheet;
      });
    },

    *newSheetKey(): DbWork<number> {
      const [row] = yield* postgresSql.rows<{ key: string }>(
        "SELECT nextval(pg_get_serial_sequence('sheets', 'key')) AS key",
        [],
      );
      return Number(row?.key);
    },
  };
}
