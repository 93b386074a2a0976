/**
 * `sheetport` as built (dist/cli.js): runs the server bundle (dist/server.js) through V8's code
 * cache. Compiling the bundle's 2.5 MB, and then each function a start calls, was a third of
 * the time to a server's first answer; a start that finds the code V8 compiled on an earlier
 * one skips it. Node 20 offers no compile cache of its own (Node 22's
 * `module.enableCompileCache` does this), so the bundle is a CommonJS module compiled here with
 * `vm.Script`, which takes and produces V8's cached data.
 *
 * The cache sits beside the bundle, one file named for the Node version, the architecture and
 * the bundle's size and time of change, so that a new build or another Node never reads a cache
 * that is not its own (V8 itself rejects data of another V8 or other flags, and then the bundle
 * is compiled as if there were none). A start without a usable cache writes one: two seconds
 * in, or at exit if sooner, so that it holds what the start compiled. A package directory it
 * cannot write to just runs without.
 */
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script, constants } from 'node:vm';

const bundle = fileURLToPath(new URL('./server.js', import.meta.url));
const dist = dirname(bundle);
const { size, mtimeMs } = statSync(bundle);
const cacheName = `${basename(bundle)}.${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}.cache`;
const cacheFile = join(dist, cacheName);

const cachedData = readIfThere(cacheFile);
const script = new Script(
  // The CommonJS wrapper, as Node's own loader adds it; the bundle's first line is a #! line.
  `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8').replace(/^#!/, '//')}\n})`,
  {
    filename: bundle,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  },
);
if (cachedData === undefined || script.cachedDataRejected === true) keepCacheLater();

// Registered as a module, so that the chunks loaded on first use, which require the bundle for
// what they share with it, get this instance rather than a second one.
const server = new Module(bundle);
server.filename = bundle;
const require = createRequire(bundle);
require.cache[bundle] = server;
const run = script.runInThisContext() as (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => void;
run.call(server.exports, server.exports, require, server, bundle, dist);
server.loaded = true;

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function keepCacheLater() {
  let kept = false;
  const keep = () => {
    if (kept) return;
    kept = true;
    const temporary = `${cacheFile}.${process.pid}`;
    try {
      writeFileSync(temporary, script.createCachedData());
      // Renamed into place, so that a start never reads half a file another one is writing.
      renameSync(temporary, cacheFile);
      for (const name of readdirSync(dist)) {
        if (
          name.startsWith(`${basename(bundle)}.`) &&
          name.endsWith('.cache') &&
          name !== cacheName
        ) {
          rmSync(join(dist, name), { force: true });
        }
      }
    } catch {
      // A package directory this process may not write to: starts compile the bundle instead.
      rmSync(temporary, { force: true });
    }
  };
  setTimeout(keep, 2000).unref();
  process.once('exit', keep);
}
