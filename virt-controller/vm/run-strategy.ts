import type { RunStrategy } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { isFinal, phaseOf } from "../vmi-phase.js";
import { startBackoffRemainingMs } from "./start-failure.js";
import { hasStartPausedRequest, hasStartRequest, hasStopRequestFor } from "./state-change-requests.js";

/** What the VM controller should do about the VM's VMI this time (KubeVirt's syncRunStrategy). */
export interface VmDecision {
  /** Create the VMI (paused when a Start request asked for it). */
  start?: { paused: boolean };
  /** Delete the VMI. */
  stop?: true;
  /** Queue a Start request, so the VMI is recreated once the failed one is gone (RerunOnFailure). */
  addStartRequest?: true;
  /** A start is due but crash-loop back-off holds it this long. */
  waitMs?: number;
  /** Halted with a Start request: the spec becomes Always (as virtctl start does). */
  switchToAlways?: true;
  /** The run strategy cannot be acted on. */
  unsupported?: string;
}

export function decideRunStrategy(
  vm: Frozen<VirtualMachine>,
  vmi: Frozen<VirtualMachineInstance> | undefined,
  strategy: RunStrategy,
  nowMs: number,
): VmDecision {
  const stop: VmDecision = vmi && !vmi.metadata?.deletionTimestamp ? { stop: true } : {};
  if (vm.metadata?.deletionTimestamp) return stop;
  switch (strategy) {
    case "Always":
      if (vmi) return hasStopRequestFor(vm, vmi) || isFinal(vmi) ? stop : {};
      return startUnlessBackingOff(vm, nowMs);
    case "RerunOnFailure":
      return rerunOnFailure(vm, vmi, stop, nowMs);
    case "Manual":
      if (vmi) return hasStopRequestFor(vm, vmi) ? stop : {};
      return hasStartRequest(vm) ? startNow(vm) : {};
    case "Halted":
      if (vmi) return stop;
      return hasStartRequest(vm) ? { switchToAlways: true } : {};
    case "Once":
      return vmi ? {} : startNow(vm);
    default:
      return { unsupported: `runStrategy ${strategy} is not supported by kubevirt-ts` };
  }
}

function rerunOnFailure(
  vm: Frozen<VirtualMachine>,
  vmi: Frozen<VirtualMachineInstance> | undefined,
  stop: VmDecision,
  nowMs: number,
): VmDecision {
  if (vmi) {
    const failed = phaseOf(vmi) === "Failed";
    if (!stop.stop || !(hasStopRequestFor(vm, vmi) || isFinal(vmi))) return {};
    // The Start request is written first and the VMI deleted only once it is stored: deleting
    // first would lose the restart if we died (or lost a conflict) before writing the request.
    if (failed) return hasStartRequest(vm) ? stop : { addStartRequest: true };
    return stop;
  }
  // Only a Start request, or arriving from another strategy, starts a VM whose VMI succeeded.
  if (!hasStartRequest(vm) && vm.status?.runStrategy === "RerunOnFailure") return {};
  return startUnlessBackingOff(vm, nowMs);
}

function startUnlessBackingOff(vm: Frozen<VirtualMachine>, nowMs: number): VmDecision {
  const waitMs = startBackoffRemainingMs(vm, nowMs);
  return waitMs > 0 ? { waitMs } : startNow(vm);
}

function startNow(vm: Frozen<VirtualMachine>): VmDecision {
  return { start: { paused: hasStartPausedRequest(vm) } };
}
