/** A malformed environment variable, named; main.ts prints the message alone and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
  }
}
