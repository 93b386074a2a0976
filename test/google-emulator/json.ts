/** Reading untyped JSON request bodies and query options, refusing what Google refuses. */
import { invalidArgument } from './errors.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseJsonBody(text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (error) {
    throw invalidArgument(`Invalid JSON payload received. ${(error as Error).message}`);
  }
  if (!isObject(value)) throw invalidArgument('Invalid JSON payload received. Expected an object.');
  return value;
}

export function objectField(body: JsonObject, key: string, where: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalidJson(`${where}.${key}`, value);
  return value;
}

export function arrayField(body: JsonObject, key: string, where: string): Json[] {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidJson(`${where}.${key}`, value);
  return value;
}

export function integerField(body: JsonObject, key: string, where: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) {
    throw invalidJson(`${where}.${key}`, value);
  }
  return number;
}

export function stringField(body: JsonObject, key: string, where: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidJson(`${where}.${key}`, value);
  return value;
}

/** An enum of a body, `type` naming its proto message as Google's refusal does. */
export function enumField<T extends string>(
  body: JsonObject,
  key: string,
  allowed: readonly T[],
  where: string,
  type: string,
): T | undefined {
  const value = stringField(body, key, where);
  if (value === undefined) return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalidArgument(
    `Invalid JSON payload received. Invalid value at '${where}.${key}' ` +
      `(type.googleapis.com/google.apps.sheets.v4.${type}), ${JSON.stringify(value)}`,
  );
}

export function booleanField(body: JsonObject, key: string): boolean {
  return body[key] === true || body[key] === 'true';
}

function invalidJson(path: string, value: Json): Error {
  return invalidArgument(
    `Invalid JSON payload received. Invalid value at '${path}' (${JSON.stringify(value)})`,
  );
}

/** An enum option, as Google refuses an unknown one: `Invalid value at 'value_render_option' …`. */
export function enumOption<T extends string>(
  value: string | null | undefined,
  allowed: readonly T[],
  fallback: T,
  name: string,
): T {
  if (value === undefined || value === null || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  const type = name.charAt(0).toUpperCase() + name.slice(1);
  throw invalidArgument(
    `Invalid value at '${snake}' (type.googleapis.com/google.apps.sheets.v4.${type}), "${value}"`,
  );
}
