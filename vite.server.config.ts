import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const { dependencies } = JSON.parse(
  readFileSync(new URL('package.json', import.meta.url), 'utf8'),
) as {
  dependencies: Record<string, string>;
};

/**
 * Besides Sheetport's own modules, the packages bundled into dist: TypeBox, two hundred small
 * ES modules that every start would otherwise resolve and load one by one. The others stay in
 * node_modules, loaded as their authors ship them: several read files beside their own code
 * (Swagger UI's assets, better-sqlite3's native addon) or load modules by name at run time.
 */
const bundled = ['@sinclair/typebox'];

/**
 * `npm run build` bundles the server (src/cli.ts and every module it imports) into dist/cli.js,
 * and each module loaded on first use (the file readers, the PostgreSQL store, Google and
 * Microsoft, MCP, metrics) into a chunk of its own under dist/chunks/: a start reads a few files
 * instead of some four hundred. Types are checked by `npm run typecheck`, not here.
 */
export default defineConfig({
  build: {
    ssr: 'src/cli.ts',
    outDir: 'dist',
    // Clears what an earlier build left; `vite build web` then writes the console to dist/web.
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
  ssr: {
    noExternal: bundled,
    external: Object.keys(dependencies).filter((name) => !bundled.includes(name)),
  },
});
