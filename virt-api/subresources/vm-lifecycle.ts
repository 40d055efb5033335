/**
 * virtctl start / stop / restart as KubeVirt's virt-api decides them
 * (pkg/virt-api/.../virtualmachine/lifecycle): from the VM's run strategy and its VMI, either a
 * new run strategy in the spec, or Start/Stop requests in `status.stateChangeRequests` that the
 * VM controller acts on (and clears), or a 409 with KubeVirt's message. Pure: the caller reads
 * and writes.
 *
 *   runStrategy     start            stop                     restart
 *   Always          409              spec → Halted            Stop{uid} + Start
 *   RerunOnFailure  Start            Stop{uid}                Stop{uid} + Start
 *   Manual          Start            Stop{uid}                Stop{uid} + Start
 *   Halted          spec → Always    409 (unless shorter      409
 *                                    grace: Stop{uid})
 *   Once            409              spec → Halted            409
 */
import { effectiveRunStrategy, type RunStrategy } from "../../api/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { badRequest, conflict, internalError, VIRTUAL_MACHINE } from "../status/status-error.js";
import type { RestartOptions, StartOptions, StopOptions } from "./request-options.js";

export type StateChangeRequest = NonNullable<
  NonNullable<VirtualMachine["status"]>["stateChangeRequests"]
>[number];

/** The one write to the VM a request makes. */
export type VmWrite =
  /** Replace `spec.runStrategy` (or the deprecated `spec.running`, when that is what the VM uses). */
  | { readonly target: "spec"; readonly runStrategy: RunStrategy }
  /** Replace `status.stateChangeRequests`; a recorded start failure is forgotten (a user start resets the back-off). */
  | {
      readonly target: "status";
      readonly stateChangeRequests: readonly StateChangeRequest[];
      readonly clearStartFailure: boolean;
    };

export interface LifecyclePlan {
  /** First set the VMI's `spec.terminationGracePeriodSeconds` to this (stop --grace-period, restart --force). */
  readonly vmiGracePeriod?: number;
  readonly write: VmWrite;
}

/** KubeVirt's message when the VMI is gone or finished. */
const VM_NOT_RUNNING = "VM is not running";

export function planStart(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  options: StartOptions,
): LifecyclePlan {
  const name = vm.metadata?.name ?? "";
  const phase = vmi?.status?.phase ?? "";
  if (vmi && !isFinal(vmi) && phase !== "Unknown" && phase !== "") {
    throw conflict(VIRTUAL_MACHINE, name, "VM is already running");
  }
  const start: StateChangeRequest = options.paused
    ? { action: "Start", data: { paused: "true" } }
    : { action: "Start" };
  const strategy = effectiveRunStrategy(vm.spec);
  switch (strategy) {
    case "Halted":
      // Starting paused needs the request's data unless the template already starts paused;
      // the VM controller turns a Start request on a Halted VM into runStrategy Always.
      if (options.paused && vm.spec.template.spec?.startStrategy !== "Paused") {
        return { write: requestsWrite(vm, [start]) };
      }
      return { write: { target: "spec", runStrategy: "Always" } };
    case "RerunOnFailure":
    case "Manual": {
      if (strategy === "RerunOnFailure" && phase === "Failed") {
        throw conflict(
          VIRTUAL_MACHINE,
          name,
          "RerunOnFailure does not support starting VM from failed state",
        );
      }
      const restart = vmi !== undefined && (strategy === "Manual" ? isFinal(vmi) : phase === "Succeeded");
      return { write: requestsWrite(vm, restart ? [stopRequest(vmi), start] : [start]) };
    }
    default:
      throw conflict(VIRTUAL_MACHINE, name, `${strategy} does not support manual start requests`);
  }
}

export function planStop(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  options: StopOptions,
): LifecyclePlan {
  const name = vm.metadata?.name ?? "";
  const live = vmi !== undefined && !isFinal(vmi) ? vmi : undefined;
  const strategy = effectiveRunStrategy(vm.spec);
  // A grace period given to a stop applies to the VMI being stopped, whatever stops it.
  const grace = live && options.gracePeriod !== undefined ? { vmiGracePeriod: options.gracePeriod } : {};
  switch (strategy) {
    case "Halted": {
      if (!live) throw conflict(VIRTUAL_MACHINE, name, VM_NOT_RUNNING);
      // Already stopping: only a shorter grace period (virtctl stop --force) is news.
      const current = live.spec.terminationGracePeriodSeconds;
      if (options.gracePeriod === undefined || (current !== undefined && options.gracePeriod >= current)) {
        throw conflict(
          VIRTUAL_MACHINE,
          name,
          "Halted only supports manual stop requests with a shorter graceperiod",
        );
      }
      return { ...grace, write: requestsWrite(vm, [stopRequest(live)]) };
    }
    case "RerunOnFailure":
    case "Manual":
      if (!live) throw conflict(VIRTUAL_MACHINE, name, VM_NOT_RUNNING);
      return { ...grace, write: requestsWrite(vm, [stopRequest(live)]) };
    default:
      return { ...grace, write: { target: "spec", runStrategy: "Halted" } };
  }
}

export function planRestart(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  options: RestartOptions,
): LifecyclePlan {
  const grace = options.gracePeriodSeconds;
  if (grace !== undefined && grace > 0)
    throw badRequest("For force restart, only gracePeriod=0 is supported for now");
  if (grace !== undefined && grace < 0) throw badRequest("gracePeriod has to be greater or equal to 0");
  const name = vm.metadata?.name ?? "";
  const strategy = effectiveRunStrategy(vm.spec);
  if (strategy === "Halted" || strategy === "Once") {
    // "RunStategy" (sic): KubeVirt's message, which scripts may match.
    throw conflict(VIRTUAL_MACHINE, name, `RunStategy ${strategy} does not support manual restart requests`);
  }
  if (!vmi) throw conflict(VIRTUAL_MACHINE, name, `${VM_NOT_RUNNING}: Halted`);
  // A forced restart gives the VMI one second (KubeVirt's choice: 0 would skip the guest's ACPI shutdown entirely).
  return {
    ...(grace === 0 ? { vmiGracePeriod: 1 } : {}),
    write: requestsWrite(vm, [stopRequest(vmi), { action: "Start" }]),
  };
}

/**
 * The new request list (KubeVirt's getChangeRequestJSON): the requests when none are pending; a
 * lone Stop replaces pending ones (stopping wins); anything else while requests are pending is
 * refused, as KubeVirt refuses it.
 */
function requestsWrite(vm: VirtualMachine, changes: readonly StateChangeRequest[]): VmWrite {
  const pending = vm.status?.stateChangeRequests ?? [];
  const loneStop = changes.length === 1 && changes[0]?.action === "Stop";
  if (pending.length > 0 && !loneStop) {
    throw internalError("unable to complete request: stop/start already underway");
  }
  return {
    target: "status",
    stateChangeRequests: changes,
    clearStartFailure: vm.status?.startFailure != null,
  };
}

function stopRequest(vmi: VirtualMachineInstance): StateChangeRequest {
  return { action: "Stop", uid: vmi.metadata?.uid ?? "" };
}

function isFinal(vmi: VirtualMachineInstance): boolean {
  const phase = vmi.status?.phase;
  return phase === "Succeeded" || phase === "Failed";
}
