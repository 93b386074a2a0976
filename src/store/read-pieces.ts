import type { Dialect, Snapshot } from './dialect.ts';
import type { AnswerPiece, RowsToAnswer } from './read-rows.ts';
import { sheetOrMissing } from './sheet-units.ts';
import type { SheetRecord } from './store-records.ts';
import type { DbWork } from './db-work.ts';

// Large reads in sheet order, sent in pieces from one snapshot as they are read.

/** An answer read in one piece, handed over as the pieces of a larger one are. */
export async function* once<T>(value: T): AsyncIterable<T> {
  yield value;
}

/** Rows of the first piece of a read sent in pieces. */
const firstPieceRows = 1000;

/** A read in sheet order, in pieces from one snapshot, each read when the last one is taken. */
export async function* pieces<T>(
  db: Dialect,
  snapshot: Snapshot,
  sheet: SheetRecord,
  chosen: RowsToAnswer,
  pieceRows: number,
  render: (sheet: SheetRecord, chosen: RowsToAnswer) => DbWork<AnswerPiece<T>>,
): AsyncIterable<T> {
  try {
    if (chosen.kind !== 'range') throw new Error('only a range of rows is read in pieces');
    // The snapshot may hold more or fewer rows than the sheet looked up: it says where to stop.
    const current = await snapshot.run(() => sheetOrMissing(db, sheet.id));
    const to = Math.min(chosen.to, current.rowCount);
    // The first piece is small, so that the answer starts at once; each next one is twice the
    // last, up to `pieceRows`.
    let size = Math.min(pieceRows, firstPieceRows);
    for (let from = chosen.from; from < to; from += size, size = Math.min(pieceRows, size * 2)) {
      const piece: RowsToAnswer = { ...chosen, from, to: Math.min(to, from + size) };
      yield (await snapshot.run(() => render(sheet, piece))).value;
    }
  } finally {
    await snapshot.end();
  }
}
