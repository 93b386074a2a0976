/** Query parameters whose names say they hold a secret. */
const secretName = /key|token|secret|passw|pwd|auth|signature|session|credential/i;
/** A Sheetport API key, wherever it turns up: `sp_<id>_<secret>`. */
const apiKey = /sp_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}/g;

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
  return `${path}${query}`.replace(apiKey, redacted);
}

function redactParameter(parameter: string): string {
  const equals = parameter.indexOf('=');
  if (equals === -1) return parameter;
  const name = parameter.slice(0, equals);
  return secretName.test(decoded(name)) ? `${name}=${redacted}` : parameter;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
