/**
 * The terminal in raw mode for the console (every key, Ctrl+C included, goes to the guest; no
 * local echo), and back to how it was on every way out: the normal end, an error (main exits
 * through process.exit, which emits 'exit'), a signal (SIGINT, SIGTERM, SIGHUP: restored, then
 * the conventional 128+n exit), and an uncaught exception (main's handler exits the same way).
 * Node's setRawMode(false) restores the modes libuv saved when raw mode was entered.
 */

const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

export interface RawTerminal {
  /** Idempotent; also runs by itself on exit. */
  restore(): void;
}

/** Raw mode when stdin is a terminal; otherwise nothing to change (pipes pass bytes as they are). */
export function enterRawMode(stdin: NodeJS.ReadStream): RawTerminal {
  if (!stdin.isTTY) return { restore: () => undefined };
  let restored = false;
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
  };
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      stdin.setRawMode(false);
    } catch {
      // The terminal is gone (hung up): there is nothing left to restore.
    }
    process.removeListener("exit", restore);
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  };
  // Listeners first: a signal between the two steps must still find the way back.
  process.on("exit", restore);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  stdin.setRawMode(true);
  return { restore };
}
