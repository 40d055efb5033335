/**
 * The flags every leader-elected component built on runtime's Manager has: where it serves
 * health and metrics (serving-options.ts) and its Lease timings (leader-election-options.ts).
 * The component adds its own (`--namespace`, images...) before.
 */
import type { Command } from "commander";
import {
  addLeaderElectionOptions,
  type LeaderElectionOptions,
  readLeaderElectionOptions,
} from "./leader-election-options.js";
import {
  addServingOptions,
  readServingOptions,
  type ServingDefaults,
  type ServingOptions,
} from "./serving-options.js";

export interface LeaderElectedOptions extends ServingOptions {
  readonly leaderElection: LeaderElectionOptions;
}

export function addLeaderElectedOptions(command: Command, defaults: ServingDefaults): Command {
  addServingOptions(command, defaults);
  return addLeaderElectionOptions(command);
}

export function readLeaderElectedOptions(command: Command): LeaderElectedOptions {
  return { ...readServingOptions(command), leaderElection: readLeaderElectionOptions(command) };
}
