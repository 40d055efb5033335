import type { VirtualMachineInstancePhase } from "../api/index.js";
import type { Frozen } from "../runtime/index.js";
import type { VirtualMachineInstance } from "./kinds.js";

type AnyVmi = Frozen<VirtualMachineInstance> | VirtualMachineInstance;

/** A VMI without a phase is Pending (KubeVirt's "unprocessed"). */
export function phaseOf(vmi: AnyVmi): VirtualMachineInstancePhase {
  return vmi.status?.phase ?? "Pending";
}

/** Succeeded or Failed: the VM will not run again under this VMI. */
export function isFinal(vmi: AnyVmi): boolean {
  const phase = phaseOf(vmi);
  return phase === "Succeeded" || phase === "Failed";
}

export function wasRunning(vmi: AnyVmi): boolean {
  return (vmi.status?.phaseTransitionTimestamps ?? []).some((entry) => entry.phase === "Running");
}
