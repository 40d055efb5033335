import type { RunStrategy, VirtualMachineStatus } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import { parseWireTime, wireTime } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { isFinal, wasRunning } from "../vmi-phase.js";

/**
 * Crash-loop back-off (KubeVirt's `startFailure`): a VMI that ends without ever running counts
 * as a failed start; the next start waits interval × failures² plus up to half of that at
 * random (so that VMs failing together spread out), capped at maxDelay. A VMI that reached
 * Running resets the count.
 */
export interface StartBackoffOptions {
  /** KubeVirt: max(maxDelay / 30, 10 s). */
  readonly intervalMs: number;
  /** KubeVirt: 300 s. */
  readonly maxDelayMs: number;
}

export const KUBEVIRT_START_BACKOFF: StartBackoffOptions = { intervalMs: 10_000, maxDelayMs: 300_000 };

export type StartFailure = NonNullable<VirtualMachineStatus["startFailure"]>;

const RESTARTING_STRATEGIES: readonly RunStrategy[] = ["Always", "RerunOnFailure", "Once"];

export function startBackoffDelayMs(
  failures: number,
  options: StartBackoffOptions,
  random: () => number = Math.random,
): number {
  const base = options.intervalMs * Math.max(1, failures) ** 2;
  const jitter = Math.floor(random() * (base / 2));
  return Math.min(base + jitter, options.maxDelayMs);
}

/**
 * The startFailure the VM's status should carry after seeing `vmi`: undefined clears it,
 * the current value when nothing new happened, a bumped count when `vmi` is a new early failure.
 */
export function nextStartFailure(
  current: Frozen<StartFailure> | null | undefined,
  strategy: RunStrategy,
  vmi: Frozen<VirtualMachineInstance> | undefined,
  nowMs: number,
  options: StartBackoffOptions,
): StartFailure | undefined {
  if ((vmi && wasRunning(vmi)) || !RESTARTING_STRATEGIES.includes(strategy)) return undefined;
  const kept = current ? (structuredClone(current) as StartFailure) : undefined;
  if (!vmi || !isFinal(vmi)) return kept;
  const uid = vmi.metadata?.uid ?? "";
  if (kept?.lastFailedVMIUID === uid) return kept;
  const failures = (kept?.consecutiveFailCount ?? 0) + 1;
  // Whole seconds (as the API writes times), rounded up so the wait is never shorter.
  const retryAt = Math.ceil((nowMs + startBackoffDelayMs(failures, options)) / 1000) * 1000;
  return { consecutiveFailCount: failures, lastFailedVMIUID: uid, retryAfterTimestamp: wireTime(retryAt) };
}

/** Milliseconds until a start is allowed again (0 when it is). */
export function startBackoffRemainingMs(vm: Frozen<VirtualMachine>, nowMs: number): number {
  const retryAt = parseWireTime(vm.status?.startFailure?.retryAfterTimestamp);
  return retryAt === undefined ? 0 : Math.max(0, retryAt - nowMs);
}
