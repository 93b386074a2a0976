import { readFile } from 'node:fs/promises';
import { table } from '../reports/report.ts';

/**
 * Reads a V8 CPU profile (what `node --cpu-prof` writes) and sums its samples into self time per
 * function, and per group of functions: the database driver, JSON and string work, Fastify,
 * Node's own modules, Sheetport's code by folder, garbage collection.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  samples: number;
  /** Whether only the samples of a window were kept (false: the window held none, all kept). */
  windowed: boolean;
  /** The whole profile, and the part not idle, in ms. */
  totalMs: number;
  busyMs: number;
  groups: { group: string; ms: number }[];
  functions: { name: string; where: string; group: string; ms: number }[];
}

const idle = '(idle)';

/** Packages by what they are, matched against a frame's file. */
const packages: [RegExp, string][] = [
  [
    /node_modules\/(better-sqlite3|pg|pg-protocol|pg-pool|pg-types|pg-connection-string)\//,
    'database driver',
  ],
  [
    /node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|fast-uri|ajv|pino|pino-std-serializers|sonic-boom|thread-stream|process-warning|toad-cache|secure-json-parse|content-type|rfdc)\//,
    'Fastify: hooks, routing, logging',
  ],
];

/** Built-in functions (no file) by name: JSON and the string and buffer work around it. */
const json = new Set(['stringify', 'parse', 'JSON.stringify', 'JSON.parse']);
const strings = new Set([
  'join',
  'concat',
  'slice',
  'substring',
  'replace',
  'replaceAll',
  'split',
  'toString',
  'from',
  'byteLength',
  'write',
  'utf8Write',
  'utf8Slice',
  'latin1Slice',
  'indexOf',
  'charCodeAt',
  'fromCharCode',
  'padStart',
  'padEnd',
  'trim',
  'toLowerCase',
  'toUpperCase',
]);

function groupOfFile(url: string): string | null {
  if (url === '') return null;
  for (const [pattern, group] of packages) if (pattern.test(url)) return group;
  if (url.startsWith('node:')) return 'Node: http, net, streams, buffers';
  const own = /\/dist\/([^/]+)\//.exec(url) ?? /\/dist\/([^/]+)\.js$/.exec(url);
  // better-sqlite3's native calls show no frame of their own: SQLite's work is its caller's.
  if (own?.[1] === 'store') return "Sheetport: store, with SQLite's native work it calls";
  if (own !== null && !url.includes('node_modules')) return `Sheetport: ${own[1]}`;
  if (url.includes('node_modules')) return 'other packages';
  return 'other';
}

function groupOf(node: ProfileNode, parentOf: Map<number, ProfileNode>): string {
  const { functionName, url } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native, unattributed ((program))';
  if (functionName === idle) return idle;
  const own = groupOfFile(url);
  if (own !== null) return own;
  if (json.has(functionName)) return 'JSON: stringify, parse (built-in)';
  // Another built-in: charged to whoever called it, so that a driver's native call counts as the driver.
  let caller = parentOf.get(node.id);
  while (caller !== undefined && caller.callFrame.url === '') caller = parentOf.get(caller.id);
  const group = caller === undefined ? null : groupOfFile(caller.callFrame.url);
  if (group === 'database driver') return 'database driver';
  if (strings.has(functionName)) return 'strings and buffers (built-in)';
  return group === null ? 'other built-ins' : `${group} (built-ins it calls)`;
}

function where({ url, lineNumber }: CallFrame): string {
  if (url === '') return '(built-in)';
  const path = url.replace(/^file:\/\//, '');
  const short = path.includes('node_modules/')
    ? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    : path.includes('/dist/')
      ? path.slice(path.lastIndexOf('/dist/') + 1)
      : path;
  return `${short}:${lineNumber + 1}`;
}

/**
 * The profile's self times, over the samples taken between `window.fromUs` and `window.toUs` if
 * given. V8 stamps samples in microseconds of the monotonic clock that `process.hrtime` reads in
 * any process on the machine, so a window taken in the load generator applies to the server.
 */
export async function summarizeProfile(
  path: string,
  window: { fromUs: number; toUs: number } | null = null,
): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const stamps: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) stamps.push((at += delta));
  const inside = (i: number) =>
    window === null || ((stamps[i] ?? 0) >= window.fromUs && (stamps[i] ?? 0) <= window.toUs);
  const windowed = window !== null && profile.samples.some((_, i) => inside(i));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node);
  }
  const selfUs = new Map<number, number>();
  let samples = 0;
  profile.samples.forEach((id, i) => {
    if (windowed && !inside(i)) return;
    samples++;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const groups = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; group: string; ms: number }>();
  let totalMs = 0;
  let busyMs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const ms = us / 1000;
    totalMs += ms;
    const group = groupOf(node, parentOf);
    if (group === idle) continue;
    busyMs += ms;
    groups.set(group, (groups.get(group) ?? 0) + ms);
    const name = node.callFrame.functionName || '(anonymous)';
    const key = `${name}\n${where(node.callFrame)}`;
    const entry = functions.get(key) ?? { name, where: where(node.callFrame), group, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
  }
  return {
    samples,
    windowed,
    totalMs,
    busyMs,
    groups: [...groups].map(([group, ms]) => ({ group, ms })).sort((a, b) => b.ms - a.ms),
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms),
  };
}

/** The summary as printed: groups, then the functions with the most self time. */
export function profileLines(summary: ProfileSummary, top = 15): string[] {
  const share = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(1)}%`;
  const ms = (value: number) => Math.round(value).toLocaleString('en');
  return [
    `${summary.samples.toLocaleString('en')} samples over ${ms(summary.totalMs)} ms${summary.windowed ? ' of load' : ' (the whole process: the load could not be told apart)'}, ${ms(summary.busyMs)} ms of them not idle; shares are of the time not idle`,
    '',
    table(
      ['group', 'self ms', 'share'],
      summary.groups.map(({ group, ms: value }) => [group, ms(value), share(value)]),
    ),
    '',
    `The ${top} functions with the most self time:`,
    table(
      ['function', 'where', 'group', 'self ms', 'share'],
      summary.functions.slice(0, top).map((f) => [f.name, f.where, f.group, ms(f.ms), share(f.ms)]),
    ),
  ];
}
