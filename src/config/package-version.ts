import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.ts';

/** Sheetport's version, as package.json gives it (from src/ and from the bundle in dist/ alike). */
export const packageVersion = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
