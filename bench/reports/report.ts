import type { MeasuredImport } from '../cases/import-case.ts';
import type { Measurement } from '../harness/load.ts';

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

export function formatRate(value: number): string {
  return value < 100 ? value.toFixed(1) : integer.format(value);
}

function formatMs(value: number): string {
  if (value < 10) return value.toFixed(2);
  return value < 100 ? value.toFixed(1) : integer.format(value);
}

function formatCores(value: number | null): string {
  return value === null ? '?' : value.toFixed(2);
}

export function formatRatio(ratio: number, style: 'percent' | 'times'): string {
  if (style === 'percent') return `${(ratio * 100).toFixed(1)}%`;
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : `${ratio.toFixed(2)}x`;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A plain-text table; the first column is left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((r) => r[i]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function isClean(m: Measurement): boolean {
  return m.non2xx === 0 && m.errors === 0 && m.timeouts === 0;
}

/**
 * The table of one load case. By default Sheetport (default settings) comes first, then what it is
 * compared with, and the ratio columns divide the first row's figure by each row's;
 * `ratios: 'row-over-first'` divides each row's by the first's instead (more servers against one).
 * A "CPU db" column appears when a database was measured, a "per server" one when a row spread
 * its load over several servers.
 */
export function loadTable(
  measurements: Measurement[],
  ratios: 'first-over-row' | 'row-over-first' = 'first-over-row',
): string {
  const [first] = measurements;
  const ratio = (m: Measurement, value: (m: Measurement) => number) => {
    if (m === first || first === undefined) return '';
    const quotient =
      ratios === 'first-over-row' ? value(first) / value(m) : value(m) / value(first);
    return formatRatio(quotient, 'times');
  };
  const withDatabase = measurements.some((m) => m.databaseCores !== null);
  const spread = measurements.some((m) => m.perServer.length > 1);
  const header = ['server', 'req/s', 'runs (req/s)'];
  if (spread) header.push('per server (req/s)');
  header.push('p50 ms', 'p99 ms', 'req/s ratio', 'p99 ratio', 'CPU server');
  if (withDatabase) header.push('db');
  header.push('client', 'other', 'requests', 'non-2xx', 'errors');
  const rows = measurements.map((m) => {
    const row = [m.name, formatRate(m.requestsPerSecond), m.runs.map(formatRate).join(' / ')];
    if (spread) row.push(m.perServer.map(formatRate).join(' + '));
    row.push(
      formatMs(m.p50Ms),
      formatMs(m.p99Ms),
      ratio(m, (x) => x.requestsPerSecond),
      ratio(m, (x) => x.p99Ms),
      formatCores(m.serverCores),
    );
    if (withDatabase) row.push(formatCores(m.databaseCores));
    row.push(
      formatCores(m.clientCores),
      formatCores(m.otherCores),
      integer.format(m.requests),
      integer.format(m.non2xx),
      integer.format(m.errors),
    );
    return row;
  });
  return table(header, rows);
}

/** Warnings for every server that answered anything but 2xx: its numbers are suspect. */
export function errorLines(measurements: Measurement[]): string[] {
  return measurements
    .filter((m) => !isClean(m))
    .map((m) => {
      const codes = Object.entries(m.statusCodes)
        .map(([code, count]) => `${code}: ${integer.format(count)}`)
        .join(', ');
      return `ERRORS: ${m.name} had ${integer.format(m.non2xx)} non-2xx responses (${codes}), ${integer.format(m.errors)} errors, ${integer.format(m.timeouts)} timeouts; its figures are not a clean measurement.`;
    });
}

export function importTable(imports: MeasuredImport[]): string {
  const rows = imports.map(({ encoding, fileBytes, databaseBytes, result }) => [
    integer.format(result.rowCount),
    encoding,
    mib(fileBytes),
    mib(databaseBytes),
    `${(result.elapsedMs / 1000).toFixed(1)} s`,
    integer.format(result.rowCount / (result.elapsedMs / 1000)),
    mib(result.peakRssKib * 1024),
  ]);
  return table(
    ['rows', 'encoding', 'CSV size', 'SQLite size', 'elapsed', 'rows/s', 'peak RSS'],
    rows,
  );
}
