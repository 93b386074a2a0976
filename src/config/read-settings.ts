import type { Static, TObject } from '@sinclair/typebox';

/**
 * The keywords the settings' schema uses: each variable is text, a whole number, a number or
 * true/false, with bounds, a pattern or a fixed list of values, and a default.
 */
interface SettingSchema {
  type: 'string' | 'integer' | 'number' | 'boolean';
  default?: unknown;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
}

const known = new Set(['type', 'default', 'enum', 'minimum', 'maximum', 'minLength', 'pattern']);

export type SettingsRead<T extends TObject> =
  { ok: true; settings: Static<T> } | { ok: false; problems: string[] };

/**
 * Reads environment variables against the settings' schema: each variable set is converted to
 * its type and checked, each unset takes its default, and variables the schema does not name
 * are left out. Problems are phrased as JSON Schema validators phrase them ("SHEETPORT_PORT must
 * be integer"), one per variable, every variable checked.
 *
 * A full validator (ajv) costs a tenth of a second of every start to
 * load and compile for a flat list of variables; this reads the same schema directly. A keyword
 * it does not know fails at once, so that a setting added later is never checked only in part.
 * It is stricter than ajv's coercion in one way: a number written as blanks is not zero.
 */
export function readSettings<T extends TObject>(
  schema: T,
  env: Record<string, string | undefined>,
): SettingsRead<T> {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties)) {
    const setting = settingSchema(name, property);
    const text = env[name];
    if (text === undefined) {
      if (setting.default !== undefined) settings[name] = setting.default;
      else if (required.has(name)) problems.push(`must have required property '${name}'`);
      continue;
    }
    const read = readValue(setting, text);
    if (typeof read === 'string') problems.push(`${name} ${read}`);
    else settings[name] = read.value;
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, settings: settings as Static<T> };
}

function settingSchema(name: string, property: object): SettingSchema {
  const unknown = Object.keys(property).filter((keyword) => !known.has(keyword));
  const { type } = property as { type?: unknown };
  if (
    unknown.length > 0 ||
    (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean')
  ) {
    throw new Error(`The setting ${name} uses a schema the settings reader does not know.`);
  }
  return property as SettingSchema;
}

/** The value of one variable, or what is wrong with it. */
function readValue(setting: SettingSchema, text: string): { value: unknown } | string {
  switch (setting.type) {
    case 'boolean':
      if (text === 'true') return { value: true };
      if (text === 'false') return { value: false };
      return 'must be boolean';
    case 'integer':
    case 'number': {
      const value = text.trim() === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value)) return `must be ${setting.type}`;
      if (setting.type === 'integer' && !Number.isInteger(value)) return 'must be integer';
      if (setting.minimum !== undefined && value < setting.minimum) {
        return `must be >= ${setting.minimum}`;
      }
      if (setting.maximum !== undefined && value > setting.maximum) {
        return `must be <= ${setting.maximum}`;
      }
      return { value };
    }
    case 'string':
      if (setting.enum !== undefined && !setting.enum.includes(text)) {
        return `must be equal to one of the allowed values (${setting.enum.join(', ')})`;
      }
      // Counted in characters, as JSON Schema counts them, not UTF-16 units.
      if (setting.minLength !== undefined && [...text].length < setting.minLength) {
        return `must NOT have fewer than ${setting.minLength} characters`;
      }
      if (setting.pattern !== undefined && !new RegExp(setting.pattern, 'u').test(text)) {
        return `must match pattern "${setting.pattern}"`;
      }
      return { value: text };
  }
}
