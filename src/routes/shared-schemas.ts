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
 *
 * And each is compiled when it is first used, not while the app starts: a start compiled every
 * route's validators and serializers (and ajv's meta-schemas) before its first answer, about
 * 200 ms of a start, most of it for routes a given server is never asked. A route's first
 * request pays for its own schemas; a schema ajv cannot compile fails that request (a 500), not
 * the start, and is found by the tests that call its route.
 */
export function sharedSchemaCompilers(): CompilersFactory {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    buildValidator: ((...args: Parameters<typeof validators>) => {
      let compiler: ReturnType<typeof validators> | undefined;
      return compilingEachOnce((route: Parameters<ReturnType<typeof validators>>[0]) =>
        lazyValidator(() => (compiler ??= validators(...args))(route)),
      );
    }) as typeof validators,
    buildSerializer: (...args) => {
      let compiler: ReturnType<typeof serializers> | undefined;
      return compilingEachOnce((route: Parameters<ReturnType<typeof serializers>>[0]) =>
        lazySerializer(() => (compiler ??= serializers(...args))(route)),
      );
    },
  };
}

type Validator = ((...args: unknown[]) => unknown) & { errors?: unknown };

/**
 * A validator compiled at its first call. Fastify reads a failed validation's errors from the
 * function it called, as ajv leaves them on its own: they are copied onto this one.
 */
function lazyValidator<Compiled>(compile: () => Compiled): Compiled {
  let compiled: Validator | undefined;
  const validate: Validator = (...args) => {
    compiled ??= compile() as Validator;
    const result = compiled(...args);
    validate.errors = compiled.errors;
    return result;
  };
  return validate as Compiled;
}

/** A serializer compiled at its first call. */
function lazySerializer<Compiled>(compile: () => Compiled): Compiled {
  let compiled: ((data: unknown) => string) | undefined;
  return ((data: unknown) =>
    (compiled ??= compile() as (data: unknown) => string)(data)) as Compiled;
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
