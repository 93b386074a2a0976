/** What one wrk run reported, read from its output (see wrk-scripts.ts for what scripts add). */
export interface WrkReport {
  /** Answers received. */
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU wrk used, user and system, from the shell's `times`. */
  clientSeconds: number;
  /** Requests sent, where the script counts them; else the answers. */
  sent: number;
  /** Numbered requests made (the POSTs of a script that posts), where the script counts them. */
  made: number;
  /** Answers by status, where the script tracks them. */
  statuses: Map<number, number>;
  /** Ids of the rows posted and acknowledged, and refused, where the script tracks them. */
  acked: number[];
  refused: number[];
  /**
   * Whether the script noted answers without reading them: then `acked` holds every POST
   * answered, and only `non2xx` says whether any of them was refused.
   */
  notedUnread: boolean;
}

function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (match === null) return Number.NaN;
  const value = Number(match[1]);
  const scale: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return value * (scale[match[2] ?? 'ms'] ?? Number.NaN);
}

/** Reads wrk's report, what the script printed when done, and the CPU from `times`. */
export function parseWrk(output: string): WrkReport {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  if (done === null) throw new Error(`wrk said:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const latency = (p: string) =>
    milliseconds(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const times = [...output.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
  const clientSeconds =
    times === undefined
      ? Number.NaN
      : Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]);
  const counted = [...output.matchAll(/^counted \d+ (\d+) (\d+)$/gm)];
  const statuses = new Map<number, number>();
  for (const [, code, count] of output.matchAll(/^status \d+ (\d+) (\d+)$/gm)) {
    statuses.set(Number(code), (statuses.get(Number(code)) ?? 0) + Number(count));
  }
  const ids = (name: string) =>
    [...output.matchAll(new RegExp(`^${name} \\d+ ([\\d,]*)$`, 'gm'))].flatMap(([, list = '']) =>
      list === '' ? [] : list.split(',').map(Number),
    );
  const requests = Number(done[1]);
  return {
    requests,
    seconds: milliseconds(`${done[2]}${done[3]}`) / 1000,
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: socket === null ? 0 : Number(socket[1]) + Number(socket[2]) + Number(socket[3]),
    timeouts: socket === null ? 0 : Number(socket[4]),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    clientSeconds,
    sent: counted.length === 0 ? requests : counted.reduce((sum, [, n]) => sum + Number(n), 0),
    made: counted.reduce((sum, [, , n]) => sum + Number(n), 0),
    statuses,
    acked: ids('acked'),
    refused: ids('refused'),
    notedUnread: /^noted unread$/m.test(output),
  };
}
