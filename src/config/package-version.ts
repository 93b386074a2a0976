import { readFileSync } from 'node:fs';

/** Sheetport's version, as package.json gives it (from src/ and from dist/ alike). */
export const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
