import type { Measurement } from '../harness/load.ts';

/**
 * What the cases must reach. Every target is checked and printed the same way, as
 * `target: <what> <comparison> <goal>: <measured> -> met|MISSED`, and saved in results.json.
 */

export type Comparison = '>=' | '<=' | '<' | '=';

/** How a goal and a measured value read: 25.0%, 10x, 85 ms, 1.9 KiB, 3. */
export type Unit = 'percent' | 'times' | 'ms' | 'bytes' | 'count';

export interface TargetOutcome {
  what: string;
  comparison: Comparison;
  goal: number;
  measured: number;
  unit: Unit;
  met: boolean;
  /** The figures behind the measured value, such as the two rates of a ratio. */
  detail?: string;
  /** Why the measured value may be suspect: errors during the run, for instance. */
  caveat?: string;
}

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return 'not measured';
  switch (unit) {
    case 'percent':
      return `${(value * 100).toFixed(1)}%`;
    case 'times':
      return value >= 10 ? `${value.toFixed(0)}x` : `${value.toFixed(2)}x`;
    case 'ms':
      return value < 10 ? `${value.toFixed(1)} ms` : `${integer.format(value)} ms`;
    case 'bytes':
      return value < 1024 ? `${integer.format(value)} B` : `${(value / 1024).toFixed(2)} KiB`;
    case 'count':
      return integer.format(value);
  }
}

function holds(measured: number, comparison: Comparison, goal: number): boolean {
  switch (comparison) {
    case '>=':
      return measured >= goal;
    case '<=':
      return measured <= goal;
    case '<':
      return measured < goal;
    case '=':
      return measured === goal;
  }
}

export function target(
  what: string,
  comparison: Comparison,
  goal: number,
  measured: number,
  unit: Unit,
  extra: { detail?: string; caveat?: string } = {},
): TargetOutcome {
  const met = Number.isFinite(measured) && holds(measured, comparison, goal);
  return { what, comparison, goal, measured, unit, met, ...extra };
}

export function targetLine(outcome: TargetOutcome): string {
  const { what, comparison, goal, measured, unit } = outcome;
  const detail = outcome.detail === undefined ? '' : ` (${outcome.detail})`;
  const caveat = outcome.caveat === undefined ? '' : ` (${outcome.caveat})`;
  const verdict = outcome.met ? 'met' : 'MISSED';
  return `target: ${what} ${comparison} ${formatValue(goal, unit)}: ${formatValue(measured, unit)}${detail} -> ${verdict}${caveat}`;
}

/** A figure measured against a goal it is not held to: `extra: <what>: <measured> (<detail>)`. */
export function extraLine({ what, measured, unit, detail, caveat }: TargetOutcome): string {
  const more = [detail, caveat].filter((text) => text !== undefined).join('; ');
  return `extra: ${what}: ${formatValue(measured, unit)}${more === '' ? '' : ` (${more})`}`;
}

function isClean(m: Measurement): boolean {
  return m.non2xx === 0 && m.errors === 0 && m.timeouts === 0;
}

/**
 * One row's requests per second divided by another's, from one case's table: `subject` must
 * reach `goal` times (or that share of) `against`.
 */
export function rateTarget(
  what: string,
  measurements: Measurement[],
  subject: string,
  against: string,
  goal: number,
  unit: 'percent' | 'times',
): TargetOutcome {
  const mine = measurements.find((m) => m.name === subject);
  const theirs = measurements.find((m) => m.name === against);
  if (mine === undefined || theirs === undefined) {
    throw new Error(`no result for ${subject} or ${against}`);
  }
  const rate = (m: Measurement) => integer.format(m.requestsPerSecond);
  return target(what, '>=', goal, mine.requestsPerSecond / theirs.requestsPerSecond, unit, {
    detail: `${subject} ${rate(mine)} ÷ ${against} ${rate(theirs)} req/s`,
    ...(isClean(mine) && isClean(theirs) ? {} : { caveat: 'with errors: see the case above' }),
  });
}
