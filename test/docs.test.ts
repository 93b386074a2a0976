/**
 * The docs hold together: every relative link and anchor in the README and the pages under docs/
 * leads somewhere, the README stays a front door, and the error table lists every problem code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { problemKinds } from '../src/errors/problem.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function documents(): Promise<string[]> {
  const pages = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md'));
  return [
    'README.md',
    'SECURITY.md',
    'BENCHMARKS.md',
    'CHANGELOG.md',
    ...pages.map((name) => `docs/${name}`),
  ];
}

/** Markdown outside fenced code blocks, where `#` starts a comment and not a heading. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*(```|~~~)/.test(line);
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers: its headings' (repeats numbered) and explicit `<a id>`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = slugOf(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const [, id] of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(id!);
  }
  return anchors;
}

/** Every link target in a page's prose: Markdown links and `src` attributes. */
function targetsOf(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of prose(markdown)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const [, a, b] of text.matchAll(/\]\(([^)\s]+)\)|src="([^"]+)"/g)) targets.push(a ?? b!);
  }
  return targets;
}

test('slugs and anchors are made as GitHub makes them', () => {
  assert.equal(slugOf('Safe retries: Idempotency-Key'), 'safe-retries-idempotency-key');
  assert.equal(
    slugOf('Connecting an Excel workbook, step by step'),
    'connecting-an-excel-workbook-step-by-step',
  );
  assert.equal(slugOf('`_with_key` and `ETag`'), '_with_key-and-etag');
  assert.deepEqual(
    [...anchorsOf('# A\n```sh\n# not a heading\n```\n## A\n<a id="x"></a>')],
    ['a', 'a-1', 'x'],
  );
});

test('every relative link and anchor in the README and docs/ leads to a file and a heading that exist', async () => {
  const broken: string[] = [];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = async (file: string): Promise<Set<string>> => {
    let found = anchors.get(file);
    if (found === undefined) {
      found = anchorsOf(await readFile(join(root, file), 'utf8'));
      anchors.set(file, found);
    }
    return found;
  };
  const pages = await documents();
  let checked = 0;
  for (const page of pages) {
    const text = await readFile(join(root, page), 'utf8');
    for (const target of targetsOf(text)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      checked++;
      const [path = '', anchor] = target.split('#', 2);
      const file = path === '' ? page : relative(root, resolve(root, dirname(page), path));
      if (file.startsWith('..') || !existsSync(join(root, file))) {
        broken.push(`${page}: ${target} (no file ${file})`);
        continue;
      }
      if (anchor !== undefined && anchor !== '') {
        if (!file.endsWith('.md'))
          broken.push(`${page}: ${target} (an anchor into a non-Markdown file)`);
        else if (!(await anchorsIn(file)).has(anchor))
          broken.push(`${page}: ${target} (no such heading in ${file})`);
      }
    }
  }
  assert.ok(checked > 50, `only ${checked} links were checked: is the link pattern still right?`);
  assert.deepEqual(broken, []);
});

test('the README is a front door of at most 300 lines that links every page under docs/', async () => {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  assert.ok(readme.split('\n').length <= 300, `README.md has ${readme.split('\n').length} lines`);
  assert.match(readme, /npm ci && npm start/);
  assert.match(readme, /npm ci && npm test/);
  const linked = new Set(targetsOf(readme).map((target) => target.split('#')[0]));
  for (const page of await documents()) {
    if (page.startsWith('docs/')) assert.ok(linked.has(page), `README.md does not link ${page}`);
  }
});

test('the error table lists every problem code with its status', async () => {
  const table = await readFile(join(root, 'docs/errors.md'), 'utf8');
  const rows = new Map<string, number>();
  for (const [, status, code] of table.matchAll(/^\| (\d{3}) +\| `([a-z-]+)` +\|/gm)) {
    rows.set(code!, Number(status));
  }
  for (const [code, { status }] of Object.entries(problemKinds)) {
    assert.equal(rows.get(code), status, `docs/errors.md: ${code} should be listed with ${status}`);
  }
  for (const code of rows.keys())
    assert.ok(code in problemKinds, `docs/errors.md lists ${code}, which no problem has`);
});

test("the internals page's map of the source names every folder under src/ and none that is gone", async () => {
  const page = await readFile(join(root, 'docs/internals.md'), 'utf8');
  const map = /```\nsrc\/\n([^]*?)\n\S/.exec(page)?.[1];
  assert.ok(map !== undefined, 'docs/internals.md has a map that starts with src/');
  const named = new Set([...map.matchAll(/^ +([a-z-]+)\/ /gm)].map(([, name]) => name!));
  const folders = async (dir: string): Promise<string[]> =>
    (await readdir(join(root, dir), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  const expected = await folders('src');
  for (const parent of ['store', 'providers']) expected.push(...(await folders(`src/${parent}`)));
  assert.deepEqual([...named].sort(), expected.sort());
});
