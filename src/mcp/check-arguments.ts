import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { tools, type ToolName } from './tools.ts';

const ajv = new Ajv({ allErrors: false, strict: false });
// Arguments a tool does not name are refused, though its published schema does not say so:
// every agent would pay for those words on every turn.
const validators = new Map<ToolName, ValidateFunction>(
  tools.map((tool) => [
    tool.name,
    ajv.compile({ ...tool.inputSchema, additionalProperties: false }),
  ]),
);

/** One error as a sentence that names the argument by its JSON pointer. */
function sentence(error: ErrorObject): string {
  const at = error.instancePath === '' ? 'the arguments' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at} lack "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${at} may not hold "${String(params.additionalProperty)}"`;
    case 'type':
      return `${at} must be ${String(params.type)}`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/** Null when a tool's arguments fit its input schema, else why not. */
export function checkArguments(name: ToolName, args: unknown): string | null {
  const validate = validators.get(name);
  if (validate === undefined || validate(args)) return null;
  const first = validate.errors?.[0];
  return first === undefined ? 'the arguments are invalid' : `${sentence(first)}.`;
}
