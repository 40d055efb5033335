/**
 * How virtctl ends on a failure: one line on stderr (`error: ...`), exit status 1 (or the
 * CliError's own). A CliError's message was written for the user; anything else is a bug or an
 * unexpected condition, printed the same way so the user still gets one line, with its cause
 * when there is one.
 */
import { ApiError } from "../api/api-error.js";
import { CliError, oneLine } from "./cli-error.js";

export function reportError(error: unknown, stderr: NodeJS.WritableStream): number {
  if (error instanceof CliError) {
    stderr.write(`error: ${oneLine(error)}\n`);
    return error.exitCode;
  }
  if (error instanceof ApiError) {
    stderr.write(`error: ${oneLine(error)}\n`);
    return 1;
  }
  const cause = error instanceof Error && error.cause !== undefined ? ` (${oneLine(error.cause)})` : "";
  stderr.write(`error: unexpected failure: ${oneLine(error)}${cause}\n`);
  return 1;
}

/** Exits once stdout and stderr have taken what was written (pipes may still hold some). */
export function exitAfterFlush(code: number): void {
  // Should a stream never call back (closed under us), the process still ends with this code.
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    pending -= 1;
    if (pending === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}
