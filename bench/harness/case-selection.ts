/**
 * The cases of `npm run bench`, by letter and by name. BENCH_CASES lists the ones to run,
 * separated by commas, as letters or names (`BENCH_CASES=a,b` or `BENCH_CASES=sheets,chaos`);
 * unset, every case runs. Cases run in the order below whatever the order given.
 */
export const caseNames = {
  a: 'filter',
  b: 'getall',
  c: 'post',
  g: 'mixed',
  h: 'patterns',
  d: 'import',
  i: 'stream',
  e: 'google',
  f: 'scaleout',
  j: 'sheets',
  k: 'chaos',
  l: 'webhooks',
  m: 'outbox',
  n: 'watch',
} as const;

export type CaseName = (typeof caseNames)[keyof typeof caseNames];

export function selectedCases(list: string | undefined): Set<CaseName> {
  const all = Object.values(caseNames);
  if (list === undefined || list.trim() === '') return new Set(all);
  const byLetter = new Map<string, CaseName>(Object.entries(caseNames));
  const selected = new Set<CaseName>();
  for (const word of list.split(',').map((item) => item.trim().toLowerCase())) {
    const name = byLetter.get(word) ?? all.find((candidate) => candidate === word);
    if (name === undefined) {
      const known = Object.entries(caseNames).map(([letter, name]) => `${letter}/${name}`);
      throw new Error(`BENCH_CASES: no case "${word}"; the cases are ${known.join(', ')}`);
    }
    selected.add(name);
  }
  return new Set(all.filter((name) => selected.has(name)));
}
