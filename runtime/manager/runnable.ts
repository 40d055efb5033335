/**
 * Something the manager runs: `run` works until `signal` aborts, then cleans up and resolves.
 * Runnables that need leadership start when this process becomes the leader and stop when it
 * stops being one.
 */
export interface Runnable {
  readonly name: string;
  readonly needsLeaderElection: boolean;
  run(signal: AbortSignal): Promise<void>;
}
