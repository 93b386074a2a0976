/** The most characters of a client's text a problem document repeats back. */
export const excerptLength = 64;

/**
 * Client text as a problem names it: whole when short, else its first characters and how long
 * it was. A problem that repeated a 900 KB column name whole would be stored whole with its
 * `Idempotency-Key`, for a day.
 */
export function excerpt(text: string): string {
  if (text.length <= excerptLength) return text;
  const cut = text.slice(0, excerptLength - 1);
  // Never half a surrogate pair: the excerpt stays valid text.
  const safe = /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
  return `${safe}… (${text.length} characters)`;
}
