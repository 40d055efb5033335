import { setTimeout as sleep } from "node:timers/promises";

export interface PollOptions {
  /** Default 60 s. */
  timeoutMs?: number;
  /** Pause between looks; default 200 ms (each look may cost an API request). */
  intervalMs?: number;
  /** Describes the state seen last, for the failure message. */
  lastSeen?: () => string;
}

/**
 * Looks until `check` returns something other than undefined, and returns it; rejects naming `what`
 * after the deadline. An error thrown by `check` ends the wait at once: checks that expect
 * transient errors handle them themselves.
 */
export async function pollUntil<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  options: PollOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const seen = options.lastSeen ? `; last seen: ${options.lastSeen()}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await sleep(options.intervalMs ?? 200);
  }
}
