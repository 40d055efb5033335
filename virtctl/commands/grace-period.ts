/**
 * `--grace-period` and `--force` of stop and restart, as KubeVirt's virtctl checks them: a
 * forced stop or restart needs `--grace-period=0`, and a grace period means nothing without
 * `--force`. Returns the grace period to send, or undefined for an ordinary request.
 */
import { CliError } from "../errors/cli-error.js";

/** KubeVirt's default for --grace-period: not set. */
export const GRACE_PERIOD_UNSET = -1;

export function forcedGracePeriod(flags: { gracePeriod: number; force: boolean }): number | undefined {
  const given = flags.gracePeriod !== GRACE_PERIOD_UNSET;
  if (flags.force && flags.gracePeriod !== 0) {
    throw new CliError("--force needs --grace-period=0 (only an immediate forced shutdown is supported)");
  }
  if (given && !flags.force) throw new CliError("--grace-period needs --force");
  return flags.force ? 0 : undefined;
}
