import { defineConfig } from 'vite';

/** Where `npm run dev` serves the API, for `npm run dev:web` to send its requests to. */
const api = process.env.SHEETPORT_API_URL ?? 'http://127.0.0.1:8080';

// `npm ci` builds the console (the `prepare` script) into dist/web, which
// src/routes/console-routes.ts serves at `/`.
export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // Nothing inlined, so the console's Content-Security-Policy can forbid inline code.
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/api': api, '/admin': api, '/docs': api, '/openapi.json': api },
  },
});
