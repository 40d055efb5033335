/** kubelet's back-off for restarting crashed containers and for pulling images: 10 s doubling to 5 min. */
export interface BackOffPolicy {
  initialMs: number;
  maxMs: number;
}

export const kubeletBackOff: BackOffPolicy = { initialMs: 10_000, maxMs: 300_000 };

/**
 * The wait before the next restart after `steps` earlier back-offs: the first restart is
 * immediate, then initial, 2×initial, ... up to max (kubelet's container back-off).
 */
export function restartDelayMs(policy: BackOffPolicy, steps: number): number {
  if (steps <= 0) return 0;
  return Math.min(policy.maxMs, policy.initialMs * 2 ** (steps - 1));
}

/** The wait after the `attempts`-th failed image pull (attempts ≥ 1). */
export function pullRetryDelayMs(policy: BackOffPolicy, attempts: number): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempts - 1));
}

/** A run at least this long forgets the back-off (kubelet: twice the maximum). */
export function backOffResetMs(policy: BackOffPolicy): number {
  return 2 * policy.maxMs;
}

/** A duration as Go prints one (kubelet's messages say "back-off 1m20s"): 200ms, 1.6s, 5m0s, 1h0m0s. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${trimNumber(ms)}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  const head = hours > 0 ? `${hours}h${minutes}m` : minutes > 0 ? `${minutes}m` : "";
  return `${head}${trimNumber(seconds)}s`;
}

function trimNumber(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
