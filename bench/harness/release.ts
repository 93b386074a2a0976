import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from './output.ts';
import { root } from './paths.ts';

/** The release the cases that compare builds measure the code against. */
export const release = { name: '0.1.0', commit: 'b90eb11' } as const;

/**
 * The release's dist/cli.js, built in a tree exported from git into the system's temporary
 * directory (outside the repository, so that nothing of it is linted or committed), with the
 * dependencies its own lockfile names (`npm ci` from the registry, once: a package it used may
 * be gone from this checkout's); later runs reuse the build.
 */
export async function buildRelease(): Promise<string> {
  const dir = join(tmpdir(), `sheetport-${release.name}-${release.commit}`);
  const program = join(dir, 'dist', 'cli.js');
  if (existsSync(program)) return program;
  log(`exporting ${release.commit} into ${dir} and building it`);
  execFileSync(
    'sh',
    ['-c', `mkdir -p "${dir}" && git archive ${release.commit} | tar -x -C "${dir}"`],
    { cwd: root },
  );
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) {
    log(`installing ${release.name}'s dependencies from its lockfile`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: dir,
      stdio: 'pipe',
    });
    // Its native addon, built for this Node; `prepare` (the build) runs below.
    execFileSync('npm', ['rebuild', 'better-sqlite3'], { cwd: dir, stdio: 'pipe' });
  }
  try {
    execFileSync(
      process.execPath,
      [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: dir, stdio: 'pipe' },
    );
  } catch (error) {
    // Type errors (declarations newer than the code, should its ranges have moved) still leave
    // the JavaScript written, which types do not change.
    if (!existsSync(program)) throw error;
    log(
      `${release.name} built with type errors against these node_modules; its JavaScript is used`,
    );
  }
  return program;
}
