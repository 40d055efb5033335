/**
 * Time as the runtime sees it, passed in rather than read from globals so tests can control it.
 * `schedule` returns a function that cancels the callback.
 */
export interface Clock {
  now(): number;
  schedule(callback: () => void, delayMs: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};

/** Resolves after `delayMs`, or at once (without rejecting) when `signal` aborts. */
export function sleep(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = (): void => {
      cancel();
      resolve();
    };
    const cancel = clock.schedule(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
