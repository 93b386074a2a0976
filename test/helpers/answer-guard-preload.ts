/**
 * Loaded with `--import` into a `sheetport serve` started by a test (server-process.ts): checks
 * every answer of the process's Fastify app against its own OpenAPI document, as in-process test
 * servers are checked, and appends each mismatch, as one JSON line, to the file named by
 * ANSWER_GUARD_LOG. Each line is written at once: a process killed with SIGKILL loses none.
 * The server itself is not told: Fastify announces each instance it creates on a
 * diagnostics channel.
 */
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { AnswerGuard, type Document } from './answer-guard.ts';

const log = process.env.ANSWER_GUARD_LOG;
/** "<method> <path template> <status>": taken out of the document, so the guard's test can
 * show that a mismatch in this process fails the test that started it. */
const undocument = process.env.ANSWER_GUARD_UNDOCUMENT;

if (log !== undefined && log !== '') {
  subscribe('fastify.initialization', (message) => {
    const app = (message as { fastify: FastifyInstance }).fastify;
    const guard = new AnswerGuard(app, {
      report: (mismatch) => appendFileSync(log, `${JSON.stringify(mismatch)}\n`),
      document: (doc) => (undocument === undefined ? doc : withoutStatus(doc, undocument)),
    });
    guard.watch(app.server);
  });
}

function withoutStatus(doc: Document, entry: string): Document {
  const [method = '', template = '', status = ''] = entry.split(' ');
  const copy = structuredClone(doc);
  delete copy.paths[template]?.[method.toLowerCase()]?.responses[status];
  return copy;
}
