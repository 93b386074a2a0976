import { keptRows } from './row-diff.ts';

/**
 * Which stored row each row of a re-read is, so that a row keeps its id (its key) while people
 * edit the spreadsheet. `source[j]` is the index of the stored row that row `j` found is, or -1
 * for a row a person added; a stored row no row found names was deleted. `moved[j]` is 1 for a
 * row found in another order than the rows around it: the rest stayed, as far as order goes;
 * `edited[j]` is 1 for a row whose cells changed.
 */
export interface RowMatching {
  source: Int32Array;
  moved: Uint8Array;
  /** 1 for a row paired by position: edited, so its text differs from its stored row's. */
  edited: Uint8Array;
}

/**
 * How alike stored row `i` and found row `j` are, when both have no same-text counterpart: the
 * count of cells they share, or -1 when nothing says they are the same row.
 */
export type Likeness = (i: number, j: number) => number;

/** Gaps with more pairs than this are paired in order rather than searched for the best. */
const maxGapPairs = 250_000;

/**
 * Matches rows by their text first, as a multiset: the rows that stayed in order (a longest
 * common subsequence, cheap when little changed), then the rest by text wherever they went, a
 * text's stored rows taken in order by its found rows, so identical rows keep their order.
 * The rows left over are then paired by position, as rows a person edited in place (between
 * the same neighbours), when `alike` says they may be the same row; the others were deleted or
 * added. Of the rows matched, the longest run in order stayed; the others moved.
 */
export function matchRows(before: string[], after: string[], alike: Likeness): RowMatching {
  const n = before.length;
  const m = after.length;
  const source = new Int32Array(m).fill(-1);
  const taken = new Uint8Array(n);
  const pair = (i: number, j: number) => {
    source[j] = i;
    taken[i] = 1;
  };
  const shortest = Math.min(n, m);
  let prefix = 0;
  while (prefix < shortest && before[prefix] === after[prefix]) pair(prefix, prefix++);
  let suffix = 0;
  while (suffix < shortest - prefix && before[n - 1 - suffix] === after[m - 1 - suffix]) {
    pair(n - 1 - suffix, m - 1 - suffix);
    suffix++;
  }
  // Nothing changed: the common case of a re-read, answered without more work.
  if (prefix === n && prefix === m) {
    return { source, moved: new Uint8Array(m), edited: new Uint8Array(m) };
  }
  const oldEnd = n - suffix;
  const newEnd = m - suffix;
  const inOrder = keptRows(before.slice(prefix, oldEnd), after.slice(prefix, newEnd)) ?? [];
  for (const [i, j] of inOrder) pair(i + prefix, j + prefix);

  // The rest by text, wherever they are now.
  const waiting = new Map<string, number[]>();
  for (let i = oldEnd - 1; i >= prefix; i--) {
    if (taken[i] === 1) continue;
    const text = before[i] as string;
    const list = waiting.get(text);
    if (list === undefined) waiting.set(text, [i]);
    else list.push(i);
  }
  for (let j = prefix; j < newEnd; j++) {
    if (source[j] !== -1) continue;
    const i = waiting.get(after[j] as string)?.pop();
    if (i !== undefined) pair(i, j);
  }

  const edited = new Uint8Array(m);
  for (const [olds, news] of runsAlike(source, taken)) {
    for (const [i, j] of pairByPosition(olds, news, alike)) {
      pair(i, j);
      edited[j] = 1;
    }
  }

  const moved = new Uint8Array(m);
  const matched: number[] = [];
  for (let j = prefix; j < newEnd; j++) if (source[j] !== -1) matched.push(j);
  const stayed = longestIncreasing(matched.map((j) => source[j] as number));
  matched.forEach((j, k) => {
    if (stayed[k] === 0) moved[j] = 1;
  });
  return { source, moved, edited };
}

/**
 * The rows left, in runs between matched rows (or an end), a run of stored rows with the run of
 * found rows between the same neighbours: both, else the one above, else the one below. Rows a
 * person edited in place stay between their neighbours, even where those neighbours moved.
 */
function runsAlike(source: Int32Array, taken: Uint8Array): [number[], number[]][] {
  const n = taken.length;
  const oldRuns = runsOf(n, (i) => (taken[i] === 1 ? i : -1), n);
  const newRuns = runsOf(source.length, (j) => source[j] as number, n);
  const byBoth = new Map<string, Run>();
  const byUp = new Map<number, Run>();
  const byDown = new Map<number, Run>();
  for (const run of oldRuns) {
    byBoth.set(`${run.up},${run.down}`, run);
    byUp.set(run.up, run);
    byDown.set(run.down, run);
  }
  const paired: [number[], number[]][] = [];
  const used = new Set<Run>();
  const left: Run[] = [];
  for (const run of newRuns) {
    const old = byBoth.get(`${run.up},${run.down}`);
    if (old === undefined || used.has(old)) left.push(run);
    else {
      used.add(old);
      paired.push([old.rows, run.rows]);
    }
  }
  for (const run of left) {
    const old = [byUp.get(run.up), byDown.get(run.down)].find(
      (candidate) => candidate !== undefined && !used.has(candidate),
    );
    if (old === undefined) continue;
    used.add(old);
    paired.push([old.rows, run.rows]);
  }
  return paired;
}

/** Rows not matched, in a run, between the stored rows `up` and `down` (-1 and n at the ends). */
interface Run {
  rows: number[];
  up: number;
  down: number;
}

/** The runs of unmatched rows, `matchOf` answering each row's stored row, or -1. */
function runsOf(length: number, matchOf: (k: number) => number, n: number): Run[] {
  const runs: Run[] = [];
  let up = -1;
  let current: number[] = [];
  for (let k = 0; k <= length; k++) {
    const match = k === length ? n : matchOf(k);
    if (match === -1) {
      current.push(k);
      continue;
    }
    if (current.length > 0) runs.push({ rows: current, up, down: match });
    current = [];
    up = match;
  }
  return runs;
}

/**
 * The best pairing of a gap's stored and found rows that keeps their order: as many rows as
 * can be, the most alike; among equals the topmost. A gap too large to search is paired in order.
 */
function pairByPosition(olds: number[], news: number[], alike: Likeness): [number, number][] {
  const a = olds.length;
  const b = news.length;
  if (a === 0 || b === 0) return [];
  if (a * b > maxGapPairs) {
    const pairs: [number, number][] = [];
    for (let k = 0; k < Math.min(a, b); k++) {
      const i = olds[k] as number;
      const j = news[k] as number;
      if (alike(i, j) >= 0) pairs.push([i, j]);
    }
    return pairs;
  }
  // score[x][y]: the best over the first x stored and y found rows. A pair counts for more than
  // any likeness, so that the most rows keep their ids.
  const weight = (x: number, y: number) => {
    const likeness = alike(olds[x] as number, news[y] as number);
    return likeness < 0 ? -1 : 1_000_000 + likeness;
  };
  const width = b + 1;
  const score = new Float64Array((a + 1) * width);
  for (let x = 1; x <= a; x++) {
    for (let y = 1; y <= b; y++) {
      const w = weight(x - 1, y - 1);
      const skip = Math.max(
        score[(x - 1) * width + y] as number,
        score[x * width + y - 1] as number,
      );
      const take = w < 0 ? -1 : (score[(x - 1) * width + y - 1] as number) + w;
      score[x * width + y] = Math.max(skip, take);
    }
  }
  // Walked back from the end, skipping where it costs nothing, so that pairs sit topmost.
  const pairs: [number, number][] = [];
  let x = a;
  let y = b;
  while (x > 0 && y > 0) {
    const here = score[x * width + y] as number;
    if (score[x * width + y - 1] === here) y--;
    else if (score[(x - 1) * width + y] === here) x--;
    else {
      pairs.push([olds[x - 1] as number, news[y - 1] as number]);
      x--;
      y--;
    }
  }
  return pairs.reverse();
}

/** Marks (with 1) a longest strictly increasing subsequence of `values`. */
export function longestIncreasing(values: number[]): Uint8Array {
  const marks = new Uint8Array(values.length);
  // tails[len]: the index of the smallest value ending an increasing run of length len + 1.
  const tails: number[] = [];
  const previous = new Int32Array(values.length).fill(-1);
  values.forEach((value, k) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((values[tails[mid] as number] as number) < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[k] = tails[low - 1] as number;
    tails[low] = k;
  });
  for (let k = tails.at(-1) ?? -1; k !== -1; k = previous[k] as number) marks[k] = 1;
  return marks;
}
