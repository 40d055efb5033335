import type { Logger } from "pino";

/**
 * For a component's main.ts: the first SIGTERM or SIGINT stops `target` gracefully; a second
 * one exits at once. Returns a function that removes the handlers.
 */
export function stopOnSignals(
  target: { stop(): Promise<void> },
  log: Logger,
  signals: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"],
): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "signal received: shutting down");
    target.stop().catch((error: unknown) => {
      log.error({ err: error }, "shutdown failed");
      process.exitCode = 1;
    });
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
