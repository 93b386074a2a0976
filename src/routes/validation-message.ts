/**
 * One sentence for a request that fails its schema, naming the property by its JSON pointer
 * and, for a closed set, the values it takes: `/scopes/2 must be one of "read", "create",
 * "update" or "delete"`, where the validator lists every branch of a union it tried.
 */

/** A validation error as Ajv reports it (with `verbose`, which adds the schema it broke). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string | undefined;
  parentSchema?: { properties?: Record<string, unknown> } | undefined;
}

/** Keywords that only say "none of the branches fit": the branches' own errors say more. */
const wrappers = new Set(['anyOf', 'oneOf', 'if', 'not']);

const typeNames: Record<string, string> = {
  object: 'a JSON object',
  array: 'an array',
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'null',
};

/** The pointer an error is about: a missing or extra property is named itself. */
function pointerOf(error: SchemaError): string {
  const property =
    error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  return typeof property === 'string'
    ? `${error.instancePath}/${escape(property)}`
    : error.instancePath;
}

/** A property name as a JSON pointer token (RFC 6901). */
function escape(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

const depth = (pointer: string) => (pointer === '' ? 0 : pointer.split('/').length);

/** `a`, `a or b`, `a, b or c`. */
function either(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1] as string}`;
}

/** What the value at the pointer must be, from every error about it. */
function requirement(errors: SchemaError[]): string {
  const allowed: unknown[] = [];
  const types: string[] = [];
  for (const error of errors) {
    if (error.keyword === 'const') allowed.push(error.params.allowedValue);
    else if (error.keyword === 'enum')
      allowed.push(...((error.params.allowedValues as unknown[]) ?? []));
    else if (error.keyword === 'type') types.push(...String(error.params.type).split(','));
  }
  const kinds = [...new Set(types)].map((type) => typeNames[type] ?? type);
  if (allowed.length > 0) {
    const values = [...new Set(allowed.map((value) => JSON.stringify(value)))];
    const listed =
      values.length === 1 ? `must be ${values[0]}` : `must be one of ${either(values)}`;
    return kinds.length > 0 ? `${listed}, or ${either(kinds)}` : listed;
  }
  if (kinds.length > 0) return `must be ${either(kinds)}`;
  const [first] = errors;
  return first === undefined ? 'is not valid' : describe(first);
}

function describe(error: SchemaError): string {
  switch (error.keyword) {
    case 'required':
      return 'is missing; it is required';
    case 'additionalProperties': {
      const taken = Object.keys(error.parentSchema?.properties ?? {});
      return taken.length === 0
        ? 'is not a property this takes'
        : `is not a property this takes; it takes ${either(taken.map((name) => JSON.stringify(name)))}`;
    }
    default:
      return error.message ?? 'is not valid';
  }
}

/**
 * The sentence for a request's schema errors: the deepest property any error names, and what
 * it must be. `part` is what failed, as a person calls it: "body", "query string".
 */
export function validationMessage(errors: readonly SchemaError[], part: string): string {
  const specific = errors.filter((error) => !wrappers.has(error.keyword));
  const considered = specific.length > 0 ? specific : [...errors];
  let deepest = '';
  for (const error of considered) {
    const pointer = pointerOf(error);
    if (depth(pointer) > depth(deepest)) deepest = pointer;
  }
  const about = considered.filter((error) => pointerOf(error) === deepest);
  const what = requirement(about);
  return deepest === '' ? `The ${part} ${what}.` : `The ${part} is invalid: ${deepest} ${what}.`;
}
