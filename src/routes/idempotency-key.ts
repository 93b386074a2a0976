import { createHash } from 'node:crypto';
import { Problem } from '../errors/problem.ts';

/** The longest key accepted, unquoted; a UUID is 36 characters. */
export const maxKeyLength = 255;

/** The header that marks an answer as a stored one, sent again. */
export const replayedHeader = 'idempotent-replayed';

const invalid = (why: string) =>
  new Problem(
    'invalid-idempotency-key',
    `The Idempotency-Key header ${why}; send a quoted string such as "8e03978e-40d5-43e8-bc93-6894a57f9324" (a bare token without quotes is accepted too), at most ${maxKeyLength} characters.`,
  );

/** Characters of a bare key: RFC 9110's tchar, and the ":" and "/" of a Structured Field token. */
const bareKey = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]+$/;

/**
 * The key an `Idempotency-Key` header carries, or null without one. The draft of the IETF
 * httpapi group makes it a Structured Field string (RFC 8941: printable ASCII between double
 * quotes, `\"` and `\\` escaped); a bare token is accepted too, as many clients send one, and
 * names the same key as its quoted form.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw invalid('is sent more than once');
  const text = header.replace(/^[ \t]+|[ \t]+$/g, '');
  let key: string;
  if (text.startsWith('"')) {
    key = '';
    let i = 1;
    for (; i < text.length; i++) {
      const char = text[i] as string;
      if (char === '"') break;
      if (char === '\\') {
        const next = text[++i];
        if (next !== '"' && next !== '\\') throw invalid('escapes a character other than " or \\');
        key += next;
      } else if (char < ' ' || char > '~') {
        throw invalid('holds a character other than printable ASCII');
      } else key += char;
    }
    if (i >= text.length) throw invalid('opens a quoted string it does not close');
    if (i !== text.length - 1) throw invalid('has text after its quoted string');
  } else {
    if (text === '') throw invalid('is empty');
    if (!bareKey.test(text)) throw invalid('is neither a quoted string nor a bare token');
    key = text;
  }
  if (key === '') throw invalid('is empty');
  if (key.length > maxKeyLength) throw invalid('is too long');
  return key;
}

/** What a request is, for telling a retry from another request sent with the same key. */
export interface FingerprintedRequest {
  method: string;
  sheetId: string;
  /** The query string, without its `?`. */
  query: string;
  /** The parsed JSON body; undefined without one. */
  body: unknown;
}

/**
 * A hash of a write: its method, its sheet, its query parameters and its JSON body. Both paths of
 * a sheet (/api/v1/<id> and /api/v1/sheets/<id>) name one resource, so they fingerprint alike;
 * parameters are compared by name and decoded value, whatever their order in the URL (repeated
 * ones keep theirs); the body is compared as JSON, whatever its spacing or the order of its
 * object members.
 */
export function requestFingerprint(request: FingerprintedRequest): string {
  const parameters = [...new URLSearchParams(request.query)].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const canonical = JSON.stringify([
    request.method,
    `/api/v1/${request.sheetId}`,
    parameters,
    canonicalJson(request.body ?? null),
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

/** JSON text with every object's members sorted by name (as JavaScript sorts strings). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .map(
        (name) =>
          `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`,
      );
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
