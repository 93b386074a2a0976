/**
 * How a list of rows became another, as pairs of rows that stayed (old index, new index): the
 * longest common subsequence of the two, found with Myers' O((N+M)·D) algorithm. A person who
 * inserts or deletes one row in the middle of a tab shifts every row below it; matching rows by
 * their text rather than their place keeps those rows out of the change.
 *
 * Null when the lists differ by so much that the search would cost more than `maxWork` steps:
 * the caller then pairs the rows by place instead.
 */
export function keptRows(
  before: readonly string[],
  after: readonly string[],
  maxWork = 20_000_000,
): [number, number][] | null {
  const ids = new Map<string, number>();
  const idOf = (text: string) => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  };
  const a = before.map(idOf);
  const b = after.map(idOf);
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // Each step's furthest reaches on diagonals -d..d, kept to walk the path back.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    if ((d + 1) * (max + 1) > maxWork) return null;
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, n, m);
    }
  }
  return backtrack(trace, a, b, n, m);
}

function backtrack(
  trace: Int32Array[],
  a: number[],
  b: number[],
  n: number,
  m: number,
): [number, number][] {
  const kept: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d] ?? 0;
    const k = x - y;
    const previous = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previous);
    const previousY = previousX - previous;
    while (x > previousX && y > previousY) kept.push([--x, --y]);
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0 && a[x - 1] === b[y - 1]) kept.push([--x, --y]);
  return kept.reverse();
}
