import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';

/**
 * How deep a JSON body may nest. A row is an object in an array (depth 2); no body Sheetport
 * takes comes near this, and every step past it is recursion in some reader of the body.
 */
export const maxJsonDepth = 32;

/** Methods whose requests mean nothing by a body: one sent is left unread. */
const bodiless = new Set(['DELETE', 'OPTIONS']);

/**
 * JSON bodies, parsed as Fastify's own parser does (`__proto__` refused), once their nesting is
 * known to stay within `maxJsonDepth`: that is counted in one pass over the text, before
 * anything recurses into it, so that 5,000 levels answer 400 rather than overflow a stack. A
 * DELETE's body is left unread, whatever it holds.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      if (bodiless.has(request.method)) return done(null, undefined);
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const tooDeep = nestingPast(text, maxJsonDepth);
      if (tooDeep) {
        return done(
          new Problem(
            'invalid-body',
            `The JSON body nests deeper than ${maxJsonDepth} levels of arrays and objects; a row is one object, or an array of them.`,
            { maxDepth: maxJsonDepth },
          ),
          undefined,
        );
      }
      return parse(request, text, done);
    },
  );
}

/**
 * Whether JSON text opens more than `max` arrays and objects at once, counting only brackets
 * outside strings. Malformed text is left to the parser to refuse.
 */
export function nestingPast(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
