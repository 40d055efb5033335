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
}

type Rule = [PrintableStatus, (input: PrintableStatusInput) => boolean];

const PULL_ERRORS = new Set(["ErrImagePull", "ImagePullBackOff"]);

/**
 * KubeVirt's rules, in its order: the first that holds wins, Unknown otherwise. Statuses for
 * features kubevirt-ts does not have (migration, data volumes, PVCs) never hold. An image pull
 * error of the launcher pod shows as ErrImagePull, whether the kubelet is pulling or backing off.
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
  [
    "ErrorUnschedulable",
    ({ vmi }) => hasCondition(vmi?.status?.conditions, "PodScheduled", "False", "Unschedulable"),
  ],
  ["ErrImagePull", ({ vmi }) => pullError(vmi)],
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

function pullError(vmi: Frozen<VirtualMachineInstance> | undefined): boolean {
  const synchronized = findCondition(vmi?.status?.conditions, "Synchronized");
  return synchronized?.status === "False" && PULL_ERRORS.has(synchronized.reason ?? "");
}
