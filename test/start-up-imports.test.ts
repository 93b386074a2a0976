import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What serving loads, recorded by a loader hook in a child process that imports the modules
 * `sheetport serve` runs (the CLI's commands and the server) without starting it.
 */
function modulesLoadedToServe(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'sheetport-imports-'));
  try {
    const file = join(dir, 'imports.txt');
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './test/helpers/record-imports.mjs',
        '--input-type=module',
        '-e',
        "await import('./src/server.ts'); await import('./src/app.ts');",
      ],
      { cwd: root, env: { ...process.env, RECORD_IMPORTS_FILE: file }, stdio: 'pipe' },
    );
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('serving loads neither the file readers and writers, nor prom-client, nor Google or PostgreSQL clients, nor the MCP SDK, nor Swagger UI or a file server, nor a settings validator', () => {
  const loaded = modulesLoadedToServe();
  assert.ok(
    loaded.some((url) => url.endsWith('/src/app.ts')),
    'the hook records the modules loaded',
  );
  const unneeded = [
    '/src/files/import-file.ts',
    '/src/files/export-file.ts',
    '/src/files/csv-file.ts',
    '/src/files/xlsx-file.ts',
    '/src/metrics/metrics.ts',
    '/node_modules/prom-client/',
    '/node_modules/saxes/',
    '/node_modules/csv-parse/',
    '/node_modules/@googleapis/',
    '/node_modules/google-auth-library/',
    '/node_modules/pg/',
    '/src/mcp/mcp-endpoint.ts',
    '/node_modules/@modelcontextprotocol/',
    '/node_modules/@fastify/swagger-ui/',
    '/node_modules/@fastify/static/',
  ];
  for (const module of unneeded) {
    assert.deepEqual(
      loaded.filter((url) => url.includes(module)),
      [],
      `${module} is loaded only when used`,
    );
  }
});
