import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

export interface LintResult {
  errors: number;
  warnings: number;
  /** One line per problem: severity, rule, where, why. */
  problems: string[];
}

interface Report {
  totals: { errors: number; warnings: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer: string }[];
  }[];
}

/**
 * Lints an OpenAPI document with Redocly's CLI and its recommended rules, as clients' tools do.
 * It runs offline: no telemetry, no check for a newer version.
 */
export async function lintDocument(document: string): Promise<LintResult> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, document);
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [cli, 'lint', '--extends=recommended', '--format=json', file],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 << 20,
        },
        // It exits with 1 when it finds errors; the report says which.
        (error, stdout) => (stdout.startsWith('{') ? resolve(stdout) : reject(error ?? stdout)),
      );
    });
    const report = JSON.parse(output) as Report;
    return {
      errors: report.totals.errors,
      warnings: report.totals.warnings,
      problems: report.problems.map(
        (p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`,
      ),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
