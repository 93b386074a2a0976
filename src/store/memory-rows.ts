import type { Cell } from '../cells/cell.ts';
import { matchesSelection } from '../query/match-filter.ts';
import type { Selection } from '../query/plan.ts';
import type { MoveEffect, RowEffect } from '../model/write-effect.ts';
import { keysNotFound, ridOfKey, rowEtag } from '../query/row-key.ts';
import { checkPositions, type RowSource } from './plan-write.ts';
import { RowCodec } from './row-json.ts';
import { withoutDatabase, type DbWork } from './db-work.ts';

/**
 * A copy of a sheet's rows in memory: what a provider-backed sheet's writes are planned on, so
 * that each is planned once, sent upstream, and only then applied to the store. Each row has
 * its id (key) beside it: null for a row the copy has not taken yet, which no client can name.
 */
export class MemoryRows implements RowSource {
  readonly keepsEmptyRows = false;
  readonly #codec: RowCodec;

  constructor(
    readonly name: string,
    readonly rows: Cell[][],
    columns: string[],
    readonly rids: (number | null)[],
    /** The first id free for rows appended here (a push's reserved range starts there). */
    private nextRid: number,
  ) {
    this.#codec = new RowCodec(columns);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  select(selection: Selection): DbWork<number[]> {
    if ('ids' in selection)
      return withoutDatabase(checkPositions(this.name, this.rows.length, selection.ids));
    if ('keys' in selection) return withoutDatabase(this.#positionsOf(selection.keys));
    const positions: number[] = [];
    this.rows.forEach((row, pos) => {
      if (matchesSelection(selection, row)) positions.push(pos);
    });
    return withoutDatabase(positions);
  }

  rowsAt(positions: number[]): DbWork<Cell[][]> {
    return withoutDatabase(positions.map((pos) => [...(this.rows[pos] ?? [])]));
  }

  ridsAt(positions: number[]): DbWork<number[]> {
    return withoutDatabase(positions.map((pos) => this.rids[pos] ?? -1));
  }

  nextRids(count: number): number[] {
    return Array.from({ length: count }, (_, i) => this.nextRid + i);
  }

  rowEtags(rids: number[]): DbWork<Map<number, string>> {
    const etags = new Map<number, string>();
    for (const rid of rids) {
      const pos = this.rids.indexOf(rid);
      if (pos < 0) continue;
      const { json, dates } = this.#codec.encode(this.rows[pos] ?? []);
      etags.set(rid, rowEtag(rid, json, dates));
    }
    return withoutDatabase(etags);
  }

  apply(effect: RowEffect): DbWork<void> {
    applyInMemory(this.rows, effect);
    applyToRids(this.rids, effect);
    if (effect.kind === 'append' || effect.kind === 'insert') {
      for (const rid of effect.rids ?? []) if (rid >= this.nextRid) this.nextRid = rid + 1;
    }
    return withoutDatabase(undefined);
  }

  #positionsOf(keys: string[]): number[] {
    const positions = keys.map((key) => {
      const rid = ridOfKey(key);
      return rid === null ? -1 : this.rids.indexOf(rid);
    });
    const missing = keys.filter((_, i) => (positions[i] ?? -1) < 0);
    if (missing.length > 0) throw keysNotFound(this.name, missing);
    return positions.sort((a, b) => a - b);
  }
}

/**
 * Keeps rows' ids in step with an effect applied to the rows: rows appended or inserted take
 * the ids the effect carries (or none, null, when it carries none).
 */
export function applyToRids(rids: (number | null)[], effect: RowEffect): void {
  switch (effect.kind) {
    case 'append':
      rids.push(...effect.rows.map((_, i) => effect.rids?.[i] ?? null));
      return;
    case 'insert':
      rids.splice(effect.at, 0, ...effect.rows.map((_, i) => effect.rids?.[i] ?? null));
      return;
    case 'update':
      return;
    case 'delete':
      for (const pos of [...effect.positions].sort((a, b) => b - a)) rids.splice(pos, 1);
      return;
    case 'move':
      moveItems(rids, effect, (rid) => rid ?? null);
      return;
    default: {
      // A new kind of effect must say what it does to the rows' ids: this stops the build.
      const unknown: never = effect;
      throw new Error(`no ids for effect ${JSON.stringify(unknown)}`);
    }
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
      return;
    case 'move':
      moveItems(rows, effect, (row, k) => [...(effect.after?.[k] ?? row ?? [])]);
  }
}

/** Takes the items at a move's `from` out and puts them at its `to`, each made by `make`. */
function moveItems<T>(
  items: T[],
  effect: MoveEffect,
  make: (item: T | undefined, k: number) => T,
): void {
  const moving = effect.from.map((pos, k) => ({
    item: make(items[pos], k),
    to: effect.to[k] ?? 0,
  }));
  for (const pos of [...effect.from].sort((a, b) => b - a)) items.splice(pos, 1);
  for (const { item, to } of moving.sort((a, b) => a.to - b.to)) items.splice(to, 0, item);
}
