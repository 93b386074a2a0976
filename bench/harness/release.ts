import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log } from './output.ts';
import { root } from './paths.ts';

/** The release the cases that compare builds measure the code against. */
export const release = { name: '0.1.0', commit: 'b90eb11' } as const;

/**
 * The release's dist/cli.js, built in a tree exported from git into the system's temporary
 * directory (outside the repository, so that nothing of it is linted or committed) with this
 * checkout's node_modules; later runs reuse the build.
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
  if (!existsSync(modules)) await symlink(realpathSync(join(root, 'node_modules')), modules);
  try {
    execFileSync(
      process.execPath,
      [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: dir, stdio: 'pipe' },
    );
  } catch (error) {
    // This checkout's node_modules may hold newer type declarations than 0.1.0 was written
    // against (@fastify/static's, for one): tsc then reports errors but still writes the
    // JavaScript, which types do not change.
    if (!existsSync(program)) throw error;
    log(
      `${release.name} built with type errors against these node_modules; its JavaScript is used`,
    );
  }
  return program;
}
