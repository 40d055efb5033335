import type { Logger } from "pino";
import { isConflict } from "../client/api-errors.js";

/**
 * Runs a write based on the cache's version of an object. A Conflict means the cache is behind:
 * the newer version is on its way through the watch and will enqueue the key again, so the
 * write is dropped rather than retried with backoff (which would only log noise). Returns
 * whether the write happened. Where the write that the cache lags behind is our own, `OwnWrites`
 * skips the reconcile before it computes anything; this covers writes by anyone else.
 */
export async function unlessStale(
  write: () => Promise<unknown>,
  log: Logger,
  what: string,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (!isConflict(error)) throw error;
    log.debug({ err: error }, `${what}: the cache is behind; waiting for the newer version`);
    return false;
  }
}
