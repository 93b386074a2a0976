import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

/** Inside the project's node_modules, so that the clients find openapi-fetch as users' code does. */
const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));

/**
 * Generates the types of an OpenAPI document with openapi-typescript (as `sheet.d.ts`), and
 * type-checks each client source against them with the TypeScript compiler, strict. Answers the
 * compiler's messages per client; an empty list means it compiles.
 */
export async function checkClients(
  document: object,
  clients: Record<string, string>,
): Promise<Record<string, string[]>> {
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, 'typed-client-'));
  try {
    const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
    await writeFile(join(dir, 'sheet.d.ts'), types);
    const files = Object.keys(clients).map((name) => join(dir, `${name}.ts`));
    await Promise.all(
      Object.entries(clients).map(([name, source]) => writeFile(join(dir, `${name}.ts`), source)),
    );
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      skipLibCheck: true,
      types: [],
    });
    const messages: Record<string, string[]> = Object.fromEntries(
      Object.keys(clients).map((name) => [name, []]),
    );
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const file = diagnostic.file?.fileName ?? '';
      const name = Object.keys(clients).find((client) => file.endsWith(`/${client}.ts`));
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      (messages[name ?? 'elsewhere'] ??= []).push(text);
    }
    return messages;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
