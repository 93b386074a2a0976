import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/**
 * Fastify's own schema compilers (ajv for requests, fast-json-stringify for answers), each
 * compiling a schema once however many routes use it. Fastify compiles every route's schemas
 * while the app starts, one by one: the same sheet id, query and problem document were compiled
 * some six hundred times, most of a start's work. Compiled functions depend on the schema alone
 * (and on the shared schemas, fixed once the compiler is built), so routes can share them.
 */
export function sharedSchemaCompilers(): CompilersFactory {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    buildValidator: ((...args: Parameters<typeof validators>) =>
      compilingEachOnce(validators(...args))) as typeof validators,
    buildSerializer: (...args) => compilingEachOnce(serializers(...args)),
  };
}

function compilingEachOnce<Route extends { schema?: unknown; httpPart?: string }, Compiled>(
  compile: (route: Route) => Compiled,
): (route: Route) => Compiled {
  const compiled = new Map<string, Compiled>();
  return (route) => {
    const key = `${route.httpPart ?? ''} ${JSON.stringify(route.schema)}`;
    let done = compiled.get(key);
    if (done === undefined) {
      done = compile(route);
      compiled.set(key, done);
    }
    return done;
  };
}
