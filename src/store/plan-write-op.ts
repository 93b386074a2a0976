import { Problem } from '../errors/problem.ts';
import type { Sheet } from '../model/sheet.ts';
import type { RowQuery } from '../query/parse-row-query.ts';
import {
  fullRow,
  planAppend,
  planCells,
  planTargetedSelection,
  planUpsert,
  takeBodyKey,
  type WriteOp,
} from '../query/plan.ts';

/** The methods that write rows, each one kind of write. */
export const writeMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type WriteMethod = (typeof writeMethods)[number];

/** A write as a client asked for it: its method, the query's parameters, and its body. */
export interface AskedWrite {
  method: WriteMethod;
  query: RowQuery;
  /** The names of the query's parameters as sent: a POST takes none but `_upsert`. */
  params: string[];
  body: unknown;
}

/**
 * Which store operation a write asks for, planned against the sheet's columns: POST appends (or
 * upserts, with `_upsert`), PUT replaces the rows the query chooses, PATCH sets some of their
 * columns, DELETE removes them. The rows themselves are chosen when the operation is applied
 * (see plan-write.ts).
 */
export function planWriteOp(sheet: Sheet, { method, query, params, body }: AskedWrite): WriteOp {
  switch (method) {
    case 'POST':
      if (params.some((name) => name !== '_upsert')) {
        throw new Problem(
          'invalid-parameter',
          'POST appends rows and takes no query parameters but _upsert=<column>.',
        );
      }
      return query.upsert === null
        ? planAppend(sheet, body)
        : planUpsert(sheet, query.upsert, body);
    case 'PUT': {
      const { body: row, named } = takeBodyKey(sheet, body);
      return {
        kind: 'replace',
        selection: planTargetedSelection(sheet, query, method),
        cells: fullRow(sheet, planCells(sheet, row)),
        ...(named !== null && { named }),
      };
    }
    case 'PATCH': {
      const selection = planTargetedSelection(sheet, query, method);
      const { body: row, named } = takeBodyKey(sheet, body);
      const cells = planCells(sheet, row);
      // It would change nothing, and its count would only say which rows the query chose.
      if (cells.size === 0) {
        throw new Problem(
          'invalid-body',
          'A PATCH body of {} sets no column; name at least one, e.g. {"column": "value"}. Nothing was written.',
        );
      }
      return { kind: 'patch', selection, cells, ...(named !== null && { named }) };
    }
    case 'DELETE':
      if (!sheet.settings.deleteEnabled) {
        throw new Problem(
          'delete-disabled',
          `DELETE is switched off for sheet "${sheet.name}"; turn it on with PATCH /admin/v1/sheets/${sheet.id} {"deleteEnabled": true}.`,
          {},
          { allow: 'GET, HEAD, POST, PUT, PATCH' },
        );
      }
      return { kind: 'delete', selection: planTargetedSelection(sheet, query, method) };
  }
}
