/** A setting that is missing or wrong: the server refuses to start, saying which and why. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
