import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root, whatever directory the benchmark was started from. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
export const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** Scratch space, gitignored: generated data and the servers' files. */
export const work = fileURLToPath(new URL('../.work/', import.meta.url));

/** The environment with every SHEETPORT_ variable removed, so the caller's settings cannot leak in. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('SHEETPORT_')) env[name] = value;
  }
  return { ...env, ...extra };
}

/** A git command's output in the repository, or 'unknown' if it fails. */
export function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
