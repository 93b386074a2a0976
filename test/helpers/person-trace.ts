/**
 * A person editing a tab, as a seeded random trace, with each row's identity known to the trace
 * (never to the spreadsheet): inserts (some of them copies of a row), deletes, moves of one row
 * and of a block, sorts, and cell edits. Between two reads a row is never both moved and edited,
 * the case a re-read cannot tell from a new row. A block moved past rows moves those rows too,
 * as far as order goes, so they count as moved. Used by the key tests and bench case x.
 */
import { seededRandom } from './seeded-random.ts';

export type TraceCell = string | number | boolean;

export interface TracedRow {
  /** Who the row is, for the trace alone. */
  id: number;
  cells: TraceCell[];
}

export const traceColumns = ['name', 'city', 'amount', 'done'];

export const personOps = ['insert', 'delete', 'move-row', 'move-block', 'sort', 'edit'] as const;
export type PersonOp = (typeof personOps)[number];

const cities = Array.from({ length: 20 }, (_, i) => `city-${i}`);

export class PersonTrace {
  rows: TracedRow[] = [];
  readonly counts: Record<PersonOp, number> = {
    insert: 0,
    delete: 0,
    'move-row': 0,
    'move-block': 0,
    sort: 0,
    edit: 0,
  };
  readonly #random: () => number;
  #nextId = 0;
  /** Rows moved and rows edited since the last read. */
  #moved = new Set<number>();
  #edited = new Set<number>();

  constructor(
    seed: number,
    rowCount: number,
    /** The fewest rows the person leaves, so that the tab never empties. */
    private readonly minRows = Math.min(10, rowCount),
  ) {
    this.#random = seededRandom(seed);
    for (let i = 0; i < rowCount; i++) this.rows.push(this.#newRow());
  }

  /** The person's work between two reads: 1 to 5 operations. */
  session(): PersonOp[] {
    this.#moved.clear();
    this.#edited.clear();
    const count = 1 + this.#pick(5);
    return Array.from({ length: count }, () => this.step());
  }

  step(): PersonOp {
    for (;;) {
      const op = personOps[this.#pick(personOps.length)] as PersonOp;
      if (this.#apply(op)) {
        this.counts[op]++;
        return op;
      }
    }
  }

  /** The rows as the spreadsheet shows them. */
  values(): TraceCell[][] {
    return this.rows.map((row) => [...row.cells]);
  }

  #apply(op: PersonOp): boolean {
    const rows = this.rows;
    switch (op) {
      case 'insert': {
        const copyOf = this.#random() < 0.1 ? rows[this.#pick(rows.length)] : undefined;
        const row = this.#newRow(copyOf?.cells);
        rows.splice(this.#pick(rows.length + 1), 0, row);
        return true;
      }
      case 'delete': {
        if (rows.length <= this.minRows) return false;
        rows.splice(this.#pick(rows.length), 1);
        return true;
      }
      case 'move-row':
      case 'move-block': {
        const size = op === 'move-row' ? 1 : 2 + this.#pick(Math.min(8, rows.length - 2));
        const from = this.#pick(rows.length - size + 1);
        const block = rows.slice(from, from + size);
        const rest = [...rows.slice(0, from), ...rows.slice(from + size)];
        const to = this.#pick(rest.length + 1);
        // Every row whose order changes: the block, and the rows it passed.
        const passed = to < from ? rest.slice(to, from) : rest.slice(from, to);
        const changed = [...block, ...passed];
        if (to === from || changed.some((row) => this.#edited.has(row.id))) return false;
        rest.splice(to, 0, ...block);
        this.rows = rest;
        for (const row of changed) this.#moved.add(row.id);
        return true;
      }
      case 'sort': {
        if (this.#edited.size > 0) return false;
        const column = this.#pick(3);
        const descending = this.#random() < 0.5;
        // Stable, as a spreadsheet's sort is: ties keep their order.
        this.rows = [...rows].sort((a, b) => {
          const x = a.cells[column] as string | number;
          const y = b.cells[column] as string | number;
          const order = x < y ? -1 : x > y ? 1 : 0;
          return descending ? -order : order;
        });
        for (const row of rows) this.#moved.add(row.id);
        return true;
      }
      case 'edit': {
        const candidates = rows.filter((row) => !this.#moved.has(row.id));
        const row = candidates[this.#pick(candidates.length)];
        if (row === undefined) return false;
        const column = this.#pick(traceColumns.length);
        row.cells[column] = this.#cell(column);
        this.#edited.add(row.id);
        return true;
      }
    }
  }

  #newRow(copy?: TraceCell[]): TracedRow {
    const cells = copy !== undefined ? [...copy] : traceColumns.map((_, c) => this.#cell(c));
    return { id: this.#nextId++, cells };
  }

  #cell(column: number): TraceCell {
    switch (column) {
      case 0:
        return `name-${this.#pick(100_000)}`;
      case 1:
        return cities[this.#pick(cities.length)] as string;
      case 2:
        return this.#pick(1000);
      default:
        return this.#random() < 0.5;
    }
  }

  #pick(n: number): number {
    return Math.floor(this.#random() * n);
  }
}

/** What the keys of a run of reads did: kept, lost, and any reused or given to another row. */
export interface KeyTally {
  reads: number;
  /** Rows that were there at the read before and are there now. */
  survived: number;
  /**
   * Of those, the rows that kept their key, identical rows counted as one another: a row holds
   * its own key, or one an identical row held.
   */
  kept: number;
  /** Keys seen again after they were gone: must be 0. */
  reused: number;
  /** Keys now held by another row than before, not identical to it: must be 0. */
  givenToAnother: number;
  /** A first few of the problems found, to read when a check fails. */
  examples: string[];
}

/**
 * Checks each read's keys against the read before: `check(rows, keys)` with the trace's rows
 * and the keys the store holds for them, in the same order.
 */
export class KeyLedger {
  readonly tally: KeyTally = {
    reads: 0,
    survived: 0,
    kept: 0,
    reused: 0,
    givenToAnother: 0,
    examples: [],
  };
  /** The last read: each row's key and content, by identity; and who held each key. */
  #keyOf = new Map<number, string>();
  #holder = new Map<string, { id: number; content: string }>();
  readonly #everSeen = new Set<string>();

  check(rows: TracedRow[], keys: string[]): void {
    if (keys.length !== rows.length) {
      throw new Error(`the store holds ${keys.length} rows, the spreadsheet ${rows.length}`);
    }
    const tally = this.tally;
    const content = (row: TracedRow) => JSON.stringify(row.cells);
    const keyOf = new Map<number, string>();
    const holder = new Map<string, { id: number; content: string }>();
    // Rows with identical cells are one another's: in each group of rows identical now, the
    // survivors kept as many keys as the group holds of the keys that rows identical to them
    // (or the survivors themselves) held at the last read.
    const earlier = new Map<string, Set<string>>();
    for (const [key, { content }] of this.#holder) {
      const same = earlier.get(content) ?? new Set();
      same.add(key);
      earlier.set(content, same);
    }
    const groups = new Map<string, { survivors: number; keys: string[]; own: Set<string> }>();
    rows.forEach((row, pos) => {
      const key = keys[pos] as string;
      if (holder.has(key)) this.#problem('givenToAnother', `key ${key} held by two rows`);
      keyOf.set(row.id, key);
      holder.set(key, { id: row.id, content: content(row) });
      const was = this.#holder.get(key);
      if (was === undefined && this.#everSeen.has(key)) {
        this.#problem('reused', `key ${key} came back for row ${row.id}`);
      }
      if (was !== undefined && was.id !== row.id && was.content !== content(row)) {
        this.#problem('givenToAnother', `key ${key} went from row ${was.id} to row ${row.id}`);
      }
      const group = groups.get(content(row)) ?? { survivors: 0, keys: [], own: new Set() };
      group.keys.push(key);
      groups.set(content(row), group);
      const before = this.#keyOf.get(row.id);
      if (before === undefined) return;
      tally.survived++;
      group.survivors++;
      group.own.add(before);
    });
    for (const [text, group] of groups) {
      const held = group.keys.filter(
        (key) => group.own.has(key) || earlier.get(text)?.has(key) === true,
      );
      tally.kept += Math.min(group.survivors, held.length);
    }
    for (const key of keys) this.#everSeen.add(key);
    this.#keyOf = keyOf;
    this.#holder = holder;
    tally.reads++;
  }

  /** The share of surviving rows that kept their key; 1 when none survived yet. */
  get keptShare(): number {
    return this.tally.survived === 0 ? 1 : this.tally.kept / this.tally.survived;
  }

  #problem(kind: 'reused' | 'givenToAnother', example: string): void {
    this.tally[kind]++;
    if (this.tally.examples.length < 5) this.tally.examples.push(example);
  }
}
