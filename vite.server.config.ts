import { defineConfig } from 'vite';

/**
 * The packages left in node_modules, loaded as their authors ship them: they read files beside
 * their own code (better-sqlite3's native addon, Swagger UI's assets and the file server that
 * sends them, pino's transport worker and the pino-pretty it loads by name), or are loaded only
 * when used, by few servers (the PostgreSQL, Excel file, Google, MCP and Prometheus clients).
 * Everything else (Fastify and its plugins, ajv, TypeBox, the CSV parsers) is bundled: a start
 * otherwise resolved and read some six hundred small modules one by one.
 */
const kept = [
  'better-sqlite3',
  'pino',
  'pino-pretty',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pg',
  'pg-copy-streams',
  'exceljs',
  '@googleapis/sheets',
  '@googleapis/drive',
  'google-auth-library',
  '@modelcontextprotocol/sdk',
  'prom-client',
];
/**
 * `npm run build` bundles the server (src/cli.ts and every module it imports) into
 * dist/server.js, and each module loaded on first use (the file readers, the PostgreSQL store,
 * Google and Microsoft, MCP, metrics) into a chunk of its own under dist/chunks/. dist/cli.js,
 * the command, is src/launcher.ts: it runs the bundle through V8's code cache, which takes a
 * CommonJS script, so the output is CommonJS, and dist/package.json says so to Node. Types are
 * checked by `npm run typecheck`, not here; test/dist-build.test.ts runs what this builds.
 */
export default defineConfig({
  plugins: [
    {
      name: 'commonjs-dist',
      generateBundle() {
        this.emitFile({
          type: 'asset',
          fileName: 'package.json',
          source: `${JSON.stringify({ type: 'commonjs' })}\n`,
        });
      },
    },
  ],
  build: {
    ssr: true,
    outDir: 'dist',
    // Clears what an earlier build left; `vite build web` then writes the console to dist/web.
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { cli: 'src/launcher.ts', server: 'src/cli.ts' },
      output: {
        format: 'cjs',
        // require(), not import(), for the packages loaded on first use: a script compiled from
        // V8's cache loses Node 20's import() callback (every such package ships CommonJS).
        dynamicImportInCjs: false,
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
  ssr: {
    // Every other package, and the packages those import, in whatever version each asked for.
    noExternal: true,
    external: kept,
  },
});
