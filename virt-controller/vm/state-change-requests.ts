import type { VirtualMachineStatus } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { isFinal } from "../vmi-phase.js";

/**
 * `status.stateChangeRequests`: Start and Stop requests (virt-api writes them for virtctl
 * start/stop/restart; `kubectl patch --subresource=status` can too). Only the first is acted on;
 * it is cleared once it is done, as KubeVirt's VM controller does.
 */
export type StateChangeRequest = NonNullable<VirtualMachineStatus["stateChangeRequests"]>[number];

function firstRequest(vm: Frozen<VirtualMachine>) {
  return vm.status?.stateChangeRequests?.[0];
}

export function hasStartRequest(vm: Frozen<VirtualMachine>): boolean {
  return firstRequest(vm)?.action === "Start";
}

/** A Start request asking for the VM to start paused (`data: {paused: "true"}`). */
export function hasStartPausedRequest(vm: Frozen<VirtualMachine>): boolean {
  const request = firstRequest(vm);
  return request?.action === "Start" && request.data?.paused === "true";
}

/** A Stop request for exactly this VMI (by uid): a newer VMI is not stopped by an old request. */
export function hasStopRequestFor(vm: Frozen<VirtualMachine>, vmi: Frozen<VirtualMachineInstance>): boolean {
  const request = firstRequest(vm);
  return request?.action === "Stop" && request.uid !== undefined && request.uid === vmi.metadata?.uid;
}

/**
 * Whether the first of `requests` is done, judged on the VMI the reconcile started from: a Stop
 * is done when that VMI is gone (or it names another one); a Start when a live VMI exists.
 */
export function firstRequestIsDone(
  requests: readonly StateChangeRequest[],
  vmi: Frozen<VirtualMachineInstance> | undefined,
): boolean {
  const request = requests[0];
  if (!request) return false;
  if (request.action === "Stop") return !vmi || !request.uid || request.uid !== vmi.metadata?.uid;
  return vmi !== undefined && !vmi.metadata?.deletionTimestamp && !isFinal(vmi);
}
