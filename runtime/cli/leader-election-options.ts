/**
 * The leader election flags of a leader-elected component, with client-go's default timings, read
 * back in the shape of the Manager's `leaderElection` (the caller adds the Lease's namespace and name).
 */
import type { Command } from "commander";
import { parseSeconds } from "./option-parsers.js";

export interface LeaderElectionOptions {
  /** Absent: the Manager makes one (host name and a random suffix). */
  readonly identity?: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

export function addLeaderElectionOptions(command: Command): Command {
  return command
    .option(
      "--leader-elect-lease-duration <seconds>",
      "how long a Lease holds without renewal",
      parseSeconds,
      15,
    )
    .option(
      "--leader-elect-renew-deadline <seconds>",
      "how long the leader tries to renew before it stops",
      parseSeconds,
      10,
    )
    .option("--leader-elect-retry-period <seconds>", "pause between Lease attempts", parseSeconds, 2)
    .option("--identity <name>", "leader election identity (default: host name and a random suffix)");
}

export function readLeaderElectionOptions(command: Command): LeaderElectionOptions {
  const flags = command.opts<{
    leaderElectLeaseDuration: number;
    leaderElectRenewDeadline: number;
    leaderElectRetryPeriod: number;
    identity?: string;
  }>();
  return {
    ...(flags.identity ? { identity: flags.identity } : {}),
    leaseDurationMs: flags.leaderElectLeaseDuration * 1000,
    renewDeadlineMs: flags.leaderElectRenewDeadline * 1000,
    retryPeriodMs: flags.leaderElectRetryPeriod * 1000,
  };
}
