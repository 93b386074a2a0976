import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * The source's layers, lowest first: a folder may import from its own layer and the ones below,
 * never from one above. The model of a sheet sits at the bottom, so that the store, providers
 * and file formats describe sheets without reaching up into the code that serves them.
 *
 * The middle, between the query language and the sheets it serves, is ordered too, as its folders
 * already import one another: the store knows none of them; access (keys, scopes, limits) and
 * webhooks use only the store; file formats check uploads against access's limits; providers
 * read and write files' formats; metrics count what providers report.
 */
const layers: readonly (readonly string[])[] = [
  ['cells', 'errors', 'model'],
  ['query'],
  ['store'],
  ['access', 'webhooks'],
  ['files'],
  ['providers'],
  ['metrics'],
  ['sheets'],
  ['routes', 'mcp', 'config', 'logs', 'demo'],
  ['app.ts', 'server.ts', 'cli.ts'],
];

/** The layer of a path under src/: its top folder, or the file itself at the top. */
function layerOf(path: string): number {
  const top = path.split('/')[0] ?? path;
  const layer = layers.findIndex((names) => names.includes(top));
  assert.notEqual(layer, -1, `src/${top} is in no layer: add it to the list in layers.test.ts`);
  return layer;
}

/** Every module a file imports from src/, as paths under src/. */
function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)];
  return specifiers.map((match) => relative(src, join(dirname(join(src, file)), match[1] ?? '')));
}

/** The imports that go up a layer, as `file -> imported`. */
function upwardImports(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const imported of importsOf(file, text)) {
      if (imported.startsWith('..')) continue;
      if (layerOf(imported) > layerOf(file)) found.push(`${file} -> ${imported}`);
    }
  }
  return found;
}

async function sourceFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = relative(src, join(entry.parentPath, entry.name));
    files.set(path, await readFile(join(src, path), 'utf8'));
  }
  return files;
}

test('no folder of src/ imports from a layer above its own', async () => {
  assert.deepEqual(upwardImports(await sourceFiles()), []);
});

test('the check finds an import that goes up a layer', () => {
  const files = new Map([
    ['store/store.ts', "import type { Sheets } from '../sheets/sheets.ts';"],
    ['providers/google/x.ts', "import { rowRoutes } from '../../routes/row-routes.ts';"],
    ['sheets/sheets.ts', "import type { SheetStore } from '../store/store.ts';"],
    ['model/sheet.ts', "import type { Cell } from '../cells/cell.ts';"],
  ]);
  assert.deepEqual(upwardImports(files), [
    'store/store.ts -> sheets/sheets.ts',
    'providers/google/x.ts -> routes/row-routes.ts',
  ]);
});

/**
 * Imports of a provider's package (`providers/<name>/`) from outside it: only the list of
 * providers may name one, so that nothing else knows a provider's specifics.
 */
function providerLeaks(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file === 'providers/providers.ts') continue;
    for (const imported of importsOf(file, text)) {
      const provider = /^providers\/[^/]+\//.exec(imported)?.[0];
      if (provider !== undefined && !file.startsWith(provider))
        found.push(`${file} -> ${imported}`);
    }
  }
  return found;
}

test("nothing outside a provider's package imports from it but the list of providers", async () => {
  assert.deepEqual(providerLeaks(await sourceFiles()), []);
});

test("the check finds an import of a provider's package from outside it", () => {
  const files = new Map([
    ['routes/x.ts', "import { MicrosoftSignIn } from '../providers/excel/microsoft-sign-in.ts';"],
    ['providers/google/x.ts', "import { excelKind } from '../excel/excel-kind.ts';"],
    ['providers/excel/x.ts', "import { graph } from './graph-client.ts';"],
    ['providers/providers.ts', "import { excelKind } from './excel/excel-kind.ts';"],
    ['providers/registry.ts', "import type { TabRef } from './provider.ts';"],
  ]);
  assert.deepEqual(providerLeaks(files), [
    'routes/x.ts -> providers/excel/microsoft-sign-in.ts',
    'providers/google/x.ts -> providers/excel/excel-kind.ts',
  ]);
});

/**
 * The import cycles of the import graph `edges`, each as its members sorted and joined
 * (Tarjan's strongly connected components: a component of more than one member is a cycle).
 */
function cyclesOf(edges: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      members.push(member);
      if (member === node) break;
    }
    if (members.length > 1) found.push(members.sort().join(' <-> '));
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Import cycles between top folders of src/ (a file at the top counts as its own), and between
 * files anywhere, type imports included: a cycle means neither side can be read, tested or
 * moved without the other.
 */
function importCycles(files: Map<string, string>): { folders: string[]; files: string[] } {
  const folderEdges = new Map<string, Set<string>>();
  const fileEdges = new Map<string, Set<string>>();
  const top = (path: string) => path.split('/')[0] ?? path;
  for (const [file, text] of files) {
    const folder = folderEdges.get(top(file)) ?? new Set<string>();
    folderEdges.set(top(file), folder);
    const imported = new Set(importsOf(file, text).filter((path) => !path.startsWith('..')));
    fileEdges.set(file, imported);
    for (const path of imported) if (top(path) !== top(file)) folder.add(top(path));
  }
  return { folders: cyclesOf(folderEdges), files: cyclesOf(fileEdges) };
}

test('no two folders of src/, and no two files, import each other in a cycle', async () => {
  assert.deepEqual(importCycles(await sourceFiles()), { folders: [], files: [] });
});

test('the check finds a cycle between folders and one between files inside a folder', () => {
  const files = new Map([
    ['routes/a.ts', "import { b } from '../mcp/b.ts';"],
    ['mcp/b.ts', "import type { c } from '../routes/c.ts';"],
    ['routes/c.ts', ''],
    ['store/x.ts', "import type { Y } from './sql/y.ts';"],
    ['store/sql/y.ts', "import type { X } from '../x.ts';"],
    ['store/z.ts', "import type { X } from './x.ts';"],
  ]);
  assert.deepEqual(importCycles(files), {
    folders: ['mcp <-> routes'],
    files: ['store/sql/y.ts <-> store/x.ts'],
  });
});
