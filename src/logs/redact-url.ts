/** Query parameters whose names say they hold a secret (`sig` for signed URLs). */
const secretName = /^sig$|key|token|secret|passw|pwd|auth|signature|session|credential/i;
/** The row API's own parameters that choose or show row keys: a row key is no secret. */
const rowKeyParameter = /^_(?:with_)?key$/;
/**
 * Anything shaped like a Sheetport API key, `sp_<12-character id>_<43-character secret>`, and
 * also one cut short or mistyped: sp_ and 20 or more characters of the key alphabet, any of
 * them percent-escaped (`sp%5F...`), as the URL is logged as sent.
 */
const apiKey = /(?:s|%73)(?:p|%70)(?:_|%5[fF])(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}){20,}/g;

export const redacted = '[Redacted]';

/**
 * A request URL fit for a log: the values of secret-like query parameters (`api_key`, `token`,
 * `password`...) and anything shaped like an API key are replaced. The rest is kept as sent.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  const query =
    question === -1
      ? ''
      : `?${url
          .slice(question + 1)
          .split('&')
          .map(redactParameter)
          .join('&')}`;
  return redactKeys(`${path}${query}`);
}

/** Text fit for a log (a path segment, a header), with anything shaped like an API key replaced. */
export function redactKeys(text: string): string {
  // A key's `sp_` has an underscore or a percent escape: most text has neither, and no key.
  if (!text.includes('_') && !text.includes('%')) return text;
  return text.replace(apiKey, redacted);
}

function redactParameter(parameter: string): string {
  const equals = parameter.indexOf('=');
  if (equals === -1) return parameter;
  const name = parameter.slice(0, equals);
  const plain = decoded(name);
  return secretName.test(plain) && !rowKeyParameter.test(plain) ? `${name}=${redacted}` : parameter;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
