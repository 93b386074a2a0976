/**
 * The cases of `npm run bench`, by letter and by name, in the order they run. BENCH_CASES lists
 * the ones to run, separated by commas, as letters or names (`BENCH_CASES=a,b` or
 * `BENCH_CASES=sheets,chaos`); unset, every case runs. A new case gets a line here, then its
 * run in bench/run.ts and a row in bench/README.md.
 */
export const benchCases = [
  // The goals: the workloads of cases a, b, c and g as a user applies them.
  { letter: 'w', name: 'goals', postgres: true },
  { letter: 'a', name: 'filter', postgres: true },
  { letter: 'b', name: 'getall', postgres: true },
  { letter: 'c', name: 'post', postgres: true },
  { letter: 'g', name: 'mixed', postgres: true },
  { letter: 'h', name: 'patterns', postgres: true },
  { letter: 'd', name: 'import', postgres: false },
  { letter: 'i', name: 'stream', postgres: true },
  { letter: 'e', name: 'google', postgres: false },
  // The Excel variant of case e.
  { letter: 'p', name: 'excel', postgres: false },
  // One scattered Excel delete under a burst of 429s.
  { letter: 'u', name: 'scattered', postgres: false },
  { letter: 'f', name: 'scaleout', postgres: true },
  { letter: 'j', name: 'sheets', postgres: true },
  { letter: 'k', name: 'chaos', postgres: true },
  // The Excel variant of case k: one server on SQLite, then two on PostgreSQL losing the lock.
  { letter: 'v', name: 'excelchaos', postgres: true },
  { letter: 'l', name: 'webhooks', postgres: false },
  // Case m measures SQLite alone where PostgreSQL is not started for another case.
  { letter: 'm', name: 'outbox', postgres: true },
  { letter: 'o', name: 'watch', postgres: false },
  { letter: 'q', name: 'durable', postgres: true },
  { letter: 'r', name: 'startup', postgres: false },
  { letter: 's', name: 'groups', postgres: true },
  { letter: 't', name: 'agents', postgres: false },
  // A person's edits against row keys, on both stores.
  { letter: 'x', name: 'keys', postgres: true },
] as const satisfies readonly { letter: string; name: string; postgres: boolean }[];

export type CaseName = (typeof benchCases)[number]['name'];

export function selectedCases(list: string | undefined): Set<CaseName> {
  const all: CaseName[] = benchCases.map((bench) => bench.name);
  if (list === undefined || list.trim() === '') return new Set(all);
  const selected = new Set<CaseName>();
  for (const word of list.split(',').map((item) => item.trim().toLowerCase())) {
    const found = benchCases.find((bench) => bench.letter === word || bench.name === word);
    if (found === undefined) {
      const known = benchCases.map((bench) => `${bench.letter}/${bench.name}`);
      throw new Error(`BENCH_CASES: no case "${word}"; the cases are ${known.join(', ')}`);
    }
    selected.add(found.name);
  }
  return new Set(all.filter((name) => selected.has(name)));
}

/** Whether any of `cases` needs the throwaway PostgreSQL. */
export function needsPostgres(cases: Set<CaseName>): boolean {
  return benchCases.some((bench) => bench.postgres && cases.has(bench.name));
}
