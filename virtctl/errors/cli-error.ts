/**
 * A failure the user can act on. virtctl prints its message as one line on stderr and exits with
 * `exitCode`; the message says what went wrong and, where there is something to do, what.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: number;

  constructor(message: string, options: ErrorOptions & { exitCode?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? 1;
  }
}

/** The message of anything thrown, as one line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, " ").trim();
}
