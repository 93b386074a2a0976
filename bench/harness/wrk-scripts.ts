/**
 * What wrk asks a server, as wrk's Lua scripts. Scripts number their requests, so that no two
 * ask the same URL or post the same row: the `made`-th number of thread `offset` in leg `leg` of
 * invocation `seq` is the n below, unique across threads, legs and the runs of a case.
 * Scripts that post note which rows were acknowledged and which refused, for a write check: they
 * run one connection per wrk thread, so that a thread's answer is the one to the request it sent
 * last (wrk asks a connection's next request of the script only once the last one's answer is in).
 */

/** wrk threads per leg, at most (fewer when a leg has fewer connections). */
export const wrkThreads = 2;

/** One script: a plain GET of `path` when `lua` is null (wrk builds that request once). */
export interface Script {
  path: string;
  lua: string | null;
  /** One connection per wrk thread, so that answers are tied to requests (see above). */
  paired?: boolean;
}

/** A Lua string literal; paths and bodies are ASCII (URLs are percent-encoded). */
export function luaString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`not printable ASCII: ${text.slice(0, 80)}`);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The parts every script shares: `init` reads the invocation's number, the leg's index, the
 * number of legs and the thread count from wrk's arguments; `number()` gives the next request's
 * n; `done` prints `counted <thread> <requests sent> <numbers made>`, `status <thread> <code> <count>` and
 * `acked <thread> <id>,<id>,...` and `refused <thread> <id>,...` for the bench to read, and
 * `noted unread` for a script that notes answers without reading them (see wrk-output.ts).
 */
const prelude = `local threads = {}
function setup(thread) table.insert(threads, thread); thread:set("offset", #threads) end
function init(args)
  seq = tonumber(args[1]) or 0; leg = tonumber(args[2]) or 0
  legs = tonumber(args[3]) or 1; width = tonumber(args[4]) or 1
  made = 0; sent = 0; statuses = {}; acked = {}; refused = {}
end
function number()
  made = made + 1
  return seq * 10000000 + made * width * legs + leg * width + offset - 1
end
function done(summary, latency, requests)
  if byCompletion then io.write("noted unread\\n") end
  for i, thread in ipairs(threads) do
    io.write(string.format("counted %d %d %d\\n", i, thread:get("sent"), thread:get("made")))
    for code, count in pairs(thread:get("statuses")) do
      io.write(string.format("status %d %d %d\\n", i, code, count))
    end
    io.write(string.format("acked %d %s\\n", i, table.concat(thread:get("acked"), ",")))
    io.write(string.format("refused %d %s\\n", i, table.concat(thread:get("refused"), ",")))
  end
end
`;

/**
 * Notes each answer's status and, for the answer to a POST, its row's id as acked or refused.
 * wrk hands a `response` function every answer's body, copied into Lua: where the answers are
 * large, use `byCompletion` instead.
 */
const byStatus = `function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if pending ~= nil then
    if status == 201 then acked[#acked + 1] = pending else refused[#refused + 1] = pending end
    pending = nil
  end
end
`;

/**
 * Notes a POST's row as acked when its answer is in, without reading the answer: wrk calls
 * `delay()` on a connection before its first request and then once each answer is complete, and
 * not when the server closed the connection first (the POST then stays unanswered). The first
 * call acks nothing: before it, wrk has called `request()` once only to check the script, on the
 * first thread, and sent nothing. Which answers were refused is not known, only how many (wrk's
 * count of statuses above 399), so a write check holds only for a run with none (write-check.ts).
 */
const byCompletion = `byCompletion = true
function delay()
  if pending ~= nil and connected then acked[#acked + 1] = pending end
  pending = nil
  connected = true
  return 0
end
`;

/** GETs of `path`, the same every time. */
export function fixed(path: string): Script {
  return { path, lua: null };
}

/** GETs that go through `paths` in turn, each thread from a place of its own. */
export function cycling(paths: string[]): Script {
  const list = paths.map(luaString).join(',\n  ');
  return {
    path: paths[0] ?? '/',
    lua: `${prelude}local paths = {
  ${list}
}
function request()
  sent = sent + 1
  return wrk.format("GET", paths[number() % #paths + 1])
end
`,
  };
}

/** GETs of `prefix` followed by a number above `base`, new for every request. */
export function numbered(prefix: string, base: number): Script {
  return {
    path: prefix,
    lua: `${prelude}function request()
  sent = sent + 1
  return wrk.format("GET", ${luaString(prefix)} .. (${base} + number()))
end
`,
  };
}

/**
 * A JSON body made for request number `n`: `format` is a Lua `string.format` pattern and `values`
 * Lua expressions of `n` and `id` to fill it, such as `{ id: '1000 + n', format: '{"id":%d}',
 * values: ['id'] }`; `id` (`n` if not given) is what a write check knows the row by.
 */
export interface Body {
  id?: string;
  format: string;
  values: string[];
}

const bodyLua = (body: Body) =>
  `string.format(${luaString(body.format)}, ${body.values.map((value) => `(${value})`).join(', ')})`;

/** JSON POSTs to `path`, a new body for every request. */
export function posting(path: string, body: Body): Script {
  return {
    path,
    lua: `${prelude}function request()
  sent = sent + 1
  local n = number()
  local id = ${body.id ?? 'n'}
  return wrk.format("POST", ${luaString(path)}, { ["Content-Type"] = "application/json" }, ${bodyLua(body)})
end
`,
  };
}

/** `posting`, with every answer's status tracked for a write check (see above). */
export function trackedPosting(path: string, body: Body): Script {
  return alternating(path, 0, body, byStatus);
}

/**
 * `reads` GETs of `path` then one POST to it of a new body, over and over, counted per thread;
 * answers are tracked for a write check without being read (`byCompletion`): the GETs' are large.
 */
export function readsThenPost(path: string, reads: number, body: Body): Script {
  return alternating(path, reads, body, byCompletion);
}

/**
 * `reads` GETs of `path` then one POST to it of a new body, over and over, counted per thread
 * whatever the connections per thread, answers not tracked: the load of a dashboard and a form as
 * it comes, without a write check (`readsThenPost` has one).
 */
export function mixed(path: string, reads: number, body: Body): Script {
  return alternating(path, reads, body, '', false);
}

/**
 * GETs of `prefix` followed by one of `values`, a different one for each request: each value
 * once in the order given, every thread and invocation from a place of its own, so that a value
 * comes back only after many others (`cycling` starts every invocation at the first path).
 */
export function everyValue(prefix: string, values: string[]): Script {
  const list = values.map(luaString).join(',\n  ');
  return {
    path: `${prefix}${values[0] ?? ''}`,
    lua: `${prelude}local values = {
  ${list}
}
function request()
  sent = sent + 1
  return wrk.format("GET", ${luaString(prefix)} .. values[(number() + seq * 35317) % #values + 1])
end
`,
  };
}

function alternating(
  path: string,
  reads: number,
  body: Body,
  /** `byStatus`, `byCompletion`, or '' for none. */
  tracking: string,
  paired = true,
): Script {
  return {
    path,
    // Each thread starts its count at a place of its own: with one connection per thread, a
    // server too slow for ten requests per connection in a run would otherwise get no POST.
    lua: `${prelude}${tracking}local turn
function request()
  sent = sent + 1
  turn = (turn or (offset + seq)) + 1
  if turn % ${reads + 1} ~= 0 then pending = nil; return wrk.format("GET", ${luaString(path)}) end
  local n = number()
  local id = ${body.id ?? 'n'}
  pending = id
  return wrk.format("POST", ${luaString(path)}, { ["Content-Type"] = "application/json" }, ${bodyLua(body)})
end
`,
    paired,
  };
}

/** At most `perSecond` requests a second over `connections`: each waits its share between. */
export function paced(script: Script, perSecond: number, connections: number): Script {
  if (script.lua?.includes('function delay()') === true) {
    throw new Error('a script that notes answers by completion has its own delay()');
  }
  const lua =
    script.lua ??
    `${prelude}function request() sent = sent + 1; return wrk.format("GET", ${luaString(script.path)}) end\n`;
  return {
    ...script,
    lua: `${lua}function delay() return ${(connections * 1000) / perSecond} end\n`,
  };
}
