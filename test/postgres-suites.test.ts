import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { folderRule, notOnPostgres, postgresSuites } from './postgres-suites.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Imports through which a test opens a store: the app, a server process, the CLI, a store. */
const opensStore =
  /from '[./]+(helpers\/(build|stores|server-process|cli|google)|src\/(app|server|store\/open-store))\.ts'/;

const source = (file: string) => readFileSync(join(root, file), 'utf8');

/** Every `*.test.ts` under the repository but node_modules, relative to it. */
function allTestFiles(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return allTestFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

test('every test file runs on PostgreSQL, or is set aside by its folder or with a reason', () => {
  const onPostgres = new Set(postgresSuites());
  const unaccounted = allTestFiles().filter(
    (file) =>
      !onPostgres.has(file) &&
      !Object.hasOwn(notOnPostgres, file) &&
      folderRule(dirname(file)) === null,
  );
  assert.deepEqual(unaccounted, [], 'test files in a folder that no rule covers');
  assert.ok(onPostgres.has('test/rows.test.ts') && onPostgres.has('test/postgres/pool.test.ts'));
});

test('each file set aside is there, and its reason matches what it imports', () => {
  for (const [file, reason] of Object.entries(notOnPostgres)) {
    assert.ok(existsSync(join(root, file)), `${file} is listed but does not exist`);
    const why = Object.values(reason)[0] ?? '';
    assert.ok(why.trim() !== '', `${file} is set aside without a reason`);
    const opens = opensStore.test(source(file));
    if ('pure' in reason) assert.ok(!opens, `${file} opens a store: it is not pure`);
    else assert.ok(opens, `${file} opens no store: it is pure`);
  }
});

test('unit tests beside the source open no store', () => {
  const opening = allTestFiles().filter(
    (file) => /^(src|web)\//.test(file) && opensStore.test(source(file)),
  );
  assert.deepEqual(opening, []);
});
