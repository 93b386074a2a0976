import type { Cell } from '../cells/cell.ts';
import { matchesSelection } from '../query/match-filter.ts';
import type { Selection } from '../query/plan.ts';
import type { RowEffect } from '../model/write-effect.ts';
import { checkPositions, type RowSource } from './plan-write.ts';
import { done, type Work } from './work.ts';

/**
 * A copy of a sheet's rows in memory: what a provider-backed sheet's writes are planned on, so
 * that each is planned once, sent upstream, and only then applied to the store.
 */
export class MemoryRows implements RowSource {
  readonly keepsEmptyRows = false;

  constructor(
    readonly name: string,
    readonly rows: Cell[][],
  ) {}

  get rowCount(): number {
    return this.rows.length;
  }

  select(selection: Selection): Work<number[]> {
    if ('ids' in selection) return done(checkPositions(this.name, this.rows.length, selection.ids));
    const positions: number[] = [];
    this.rows.forEach((row, pos) => {
      if (matchesSelection(selection, row)) positions.push(pos);
    });
    return done(positions);
  }

  rowsAt(positions: number[]): Work<Cell[][]> {
    return done(positions.map((pos) => [...(this.rows[pos] ?? [])]));
  }

  apply(effect: RowEffect): Work<void> {
    applyInMemory(this.rows, effect);
    return done(undefined);
  }
}

/** Applies an effect to rows held in memory. */
export function applyInMemory(rows: Cell[][], effect: RowEffect): void {
  switch (effect.kind) {
    case 'append':
      rows.push(...effect.rows.map((row) => [...row]));
      return;
    case 'insert':
      rows.splice(effect.at, 0, ...effect.rows.map((row) => [...row]));
      return;
    case 'update':
      effect.positions.forEach((pos, i) => {
        rows[pos] = [...(effect.after[i] ?? [])];
      });
      return;
    case 'delete':
      for (const pos of [...effect.positions].sort((a, b) => b - a)) rows.splice(pos, 1);
  }
}
