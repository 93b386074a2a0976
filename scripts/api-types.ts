/**
 * Writes `web/src/api/openapi.ts`, the console's types of the management and row APIs, from the
 * OpenAPI document the server serves at /openapi.json, with openapi-typescript. Run
 * `npm run api-types` after changing a route's schema; test/api-types.test.ts fails until then.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/server.ts';

export const apiTypesFile = fileURLToPath(new URL('../web/src/api/openapi.ts', import.meta.url));

const banner = `// Generated from the server's OpenAPI document by \`npm run api-types\`; do not edit.\n\n`;

/** The OpenAPI document of a server with the default settings, in a throwaway data directory. */
async function serverDocument(): Promise<object> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-api-types-'));
  const config = loadConfig({ SHEETPORT_DATA_DIR: dataDir });
  const store = await openStore(config);
  try {
    const app = await createApp(
      { store },
      {
        bodyLimit: config.bodyLimit,
        uploadLimit: config.uploadLimit,
        cacheSize: config.cacheSize,
        limits: config.limits,
      },
    );
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await store.database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The text of `web/src/api/openapi.ts` as the document now makes it, formatted as committed. */
export async function apiTypes(): Promise<string> {
  const document = await serverDocument();
  const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  const options = await prettier.resolveConfig(apiTypesFile);
  return prettier.format(banner + types, { ...options, filepath: apiTypesFile });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(apiTypesFile, await apiTypes());
}
