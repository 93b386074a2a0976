import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of Sheetport's package.json, found upwards from this module: it runs from
 * src/config under tsx, and from a file of the bundle in dist/ once built, at whatever depth the
 * bundler put it. The package.json in dist/, which only tells Node the bundle is CommonJS, has
 * no name and is passed over.
 */
export const packageRoot = packageRootAbove(dirname(fileURLToPath(import.meta.url)));

function packageRootAbove(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (namedPackage(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${start}.`);
  }
}

function namedPackage(file: string): boolean {
  try {
    return typeof (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'string';
  } catch {
    return false;
  }
}
