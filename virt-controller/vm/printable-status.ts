import type { PrintableStatus, RunStrategy } from "../../api/index.js";
import { type Frozen, findCondition, hasCondition } from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { isFinal, phaseOf } from "../vmi-phase.js";

export interface PrintableStatusInput {
  vm: Frozen<VirtualMachine>;
  vmi: Frozen<VirtualMachineInstance> | undefined;
  strategy: RunStrategy;
  /** The controller created the VMI and its cache does not show it yet. */
  startExpected: boolean;
  /** The controller deleted the VMI and its cache does not show that yet. */
  stopExpected: boolean;
  /** startFailure.consecutiveFailCount after this reconcile. */
  failures: number;
  /** Some claim the VM's disks live on exists but is not bound yet. */
  unboundClaims: boolean;
  /** What the VM's DataVolumes allow: its VMI waits while they provision or failed. */
  dataVolumes: "ready" | "provisioning" | "error";
}

type Rule = [PrintableStatus, (input: PrintableStatusInput) => boolean];

/**
 * KubeVirt's rules, in its order: the first that holds wins, Unknown otherwise. Statuses for
 * features kubevirt-ts does not have (migration) never hold. An image pull
 * failure (of the launcher pod's kubelet, or of virt-handler pulling a containerDisk) shows as the
 * VMI's Synchronized reason says: ErrImagePull after a failed attempt, ImagePullBackOff while waiting.
 */
const RULES: readonly Rule[] = [
  ["Terminating", ({ vm }) => vm.metadata?.deletionTimestamp !== undefined],
  [
    "Stopping",
    ({ vmi, stopExpected }) =>
      vmi !== undefined && !isFinal(vmi) && (vmi.metadata?.deletionTimestamp !== undefined || stopExpected),
  ],
  ["Paused", ({ vmi }) => vmi !== undefined && phaseOf(vmi) === "Running" && paused(vmi)],
  ["Running", ({ vmi }) => vmi !== undefined && phaseOf(vmi) === "Running" && !paused(vmi)],
  ["ErrorPvcNotFound", ({ vmi }) => synchronizedFalse(vmi, "FailedPvcNotFound")],
  ["DataVolumeError", ({ dataVolumes }) => dataVolumes === "error"],
  [
    "ErrorUnschedulable",
    ({ vmi }) => hasCondition(vmi?.status?.conditions, "PodScheduled", "False", "Unschedulable"),
  ],
  ["Provisioning", ({ dataVolumes }) => dataVolumes === "provisioning"],
  [
    "WaitingForVolumeBinding",
    ({ vmi, startExpected, unboundClaims }) =>
      unboundClaims && (vmi === undefined ? startExpected : !isFinal(vmi)),
  ],
  ["ErrImagePull", ({ vmi }) => synchronizedFalse(vmi, "ErrImagePull")],
  ["ImagePullBackOff", ({ vmi }) => synchronizedFalse(vmi, "ImagePullBackOff")],
  [
    "Starting",
    ({ vmi, startExpected }) =>
      vmi === undefined ? startExpected : ["Pending", "Scheduling", "Scheduled"].includes(phaseOf(vmi)),
  ],
  [
    "CrashLoopBackOff",
    ({ vmi, startExpected, failures, strategy }) =>
      (vmi === undefined || isFinal(vmi)) &&
      !startExpected &&
      failures > 0 &&
      ["Always", "RerunOnFailure", "Once"].includes(strategy),
  ],
  ["Stopped", ({ vmi, startExpected }) => (vmi === undefined ? !startExpected : isFinal(vmi))],
];

export function printableStatus(input: PrintableStatusInput): PrintableStatus {
  return RULES.find(([, holds]) => holds(input))?.[0] ?? "Unknown";
}

function paused(vmi: Frozen<VirtualMachineInstance>): boolean {
  return hasCondition(vmi.status?.conditions, "Paused", "True");
}

function synchronizedFalse(vmi: Frozen<VirtualMachineInstance> | undefined, reason: string): boolean {
  const synchronized = findCondition(vmi?.status?.conditions, "Synchronized");
  return synchronized?.status === "False" && synchronized.reason === reason;
}
