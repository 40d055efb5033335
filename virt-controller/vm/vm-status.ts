import type { Condition, RunStrategy, VirtualMachineStatus } from "../../api/index.js";
import {
  type Frozen,
  findCondition,
  mutableCopy,
  putCondition,
  removeCondition,
  setCondition,
} from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import { isFinal } from "../vmi-phase.js";
import { printableStatus } from "./printable-status.js";
import { nextStartFailure, type StartBackoffOptions } from "./start-failure.js";
import { firstRequestIsDone, type StateChangeRequest } from "./state-change-requests.js";
import { VM_GENERATION_ANNOTATION } from "./vmi-template.js";
import { remainingVolumeRequests } from "./volume-requests.js";

export interface VmStatusInput {
  vm: Frozen<VirtualMachine>;
  /** The VM's own VMI as the reconcile found it (before its own create or delete). */
  vmi: Frozen<VirtualMachineInstance> | undefined;
  strategy: RunStrategy;
  /** Why the VM cannot be acted on (an invalid spec, a failed write): the Failure condition. */
  failure: { reason: string; message: string } | undefined;
  addStartRequest: boolean;
  startExpected: boolean;
  stopExpected: boolean;
  nowMs: number;
  backoff: StartBackoffOptions;
  /** Some claim the VM's disks live on exists but is not bound yet. */
  unboundClaims: boolean;
  /** What the VM's DataVolumes allow. */
  dataVolumes: "ready" | "provisioning" | "error";
}

/** VM conditions the controller owns; every other VMI condition is mirrored onto the VM. */
const OWN_CONDITIONS = new Set(["Ready", "Failure", "RestartRequired"]);

/** The status the VM should have: computed from scratch each time, written only if it differs. */
export function computeVmStatus(input: VmStatusInput): VirtualMachineStatus {
  const { vm, vmi } = input;
  const status: VirtualMachineStatus = vm.status ? mutableCopy<VirtualMachineStatus>(vm.status) : {};
  status.created = vmi !== undefined;
  status.ready = findCondition(vmi?.status?.conditions, "Ready")?.status === "True";
  status.desiredGeneration = vm.metadata?.generation ?? 0;
  const observed = Number.parseInt(vmi?.metadata?.annotations?.[VM_GENERATION_ANNOTATION] ?? "", 10);
  if (Number.isInteger(observed)) status.observedGeneration = observed;
  // Recorded from the first start on: RerunOnFailure tells "switched to me" from "my VMI succeeded".
  if (status.runStrategy !== undefined || status.created) status.runStrategy = input.strategy;
  setRequests(status, input);
  setVolumeRequests(status, input);
  const startFailure = nextStartFailure(
    vm.status?.startFailure,
    input.strategy,
    vmi,
    input.nowMs,
    input.backoff,
  );
  if (startFailure) status.startFailure = startFailure;
  else delete status.startFailure;
  status.conditions = conditionsOf(status.conditions, input);
  if (status.conditions.length === 0) delete status.conditions;
  status.printableStatus = printableStatus({
    vm,
    vmi,
    strategy: input.strategy,
    startExpected: input.startExpected,
    stopExpected: input.stopExpected,
    failures: startFailure?.consecutiveFailCount ?? 0,
    unboundClaims: input.unboundClaims,
    dataVolumes: input.dataVolumes,
  });
  return status;
}

function setRequests(status: VirtualMachineStatus, input: VmStatusInput): void {
  const requests: StateChangeRequest[] = [...(status.stateChangeRequests ?? [])];
  if (input.addStartRequest) requests.push({ action: "Start" });
  if (firstRequestIsDone(requests, input.vmi)) requests.shift();
  if (requests.length > 0) status.stateChangeRequests = requests;
  else delete status.stateChangeRequests;
}

/** Volume requests are cleared once the template and the live VMI (as the reconcile found it) reflect them. */
function setVolumeRequests(status: VirtualMachineStatus, input: VmStatusInput): void {
  if (!status.volumeRequests) return;
  const { vm, vmi } = input;
  const live = vmi && !vmi.metadata?.deletionTimestamp && !isFinal(vmi) ? vmi.spec : undefined;
  const template = vm.spec.template.spec ?? { domain: { devices: {} } };
  const remaining = remainingVolumeRequests(status.volumeRequests, template, live);
  if (remaining.length > 0) status.volumeRequests = remaining;
  else delete status.volumeRequests;
}

function conditionsOf(current: Condition[] | undefined, input: VmStatusInput): Condition[] {
  let conditions = withReady(current, input);
  conditions = input.failure
    ? setCondition(conditions, { type: "Failure", status: "True", ...input.failure }, input.nowMs)
    : removeCondition(conditions, "Failure");
  const mirrored = (input.vmi?.status?.conditions ?? []).filter(
    (condition) => !OWN_CONDITIONS.has(condition.type),
  );
  return [
    ...conditions.filter((condition) => OWN_CONDITIONS.has(condition.type)),
    ...mirrored.map((condition) => mutableCopy(condition) as Condition),
  ];
}

function withReady(current: Condition[] | undefined, input: VmStatusInput): Condition[] {
  const vmiReady = findCondition(input.vmi?.status?.conditions, "Ready");
  if (vmiReady) return putCondition(current, mutableCopy(vmiReady) as Condition);
  const [reason, message] = input.vmi
    ? ["VMIConditionMissing", "VMI is missing the Ready condition"]
    : ["VMINotExists", "VMI does not exist"];
  return setCondition(current, { type: "Ready", status: "False", reason, message }, input.nowMs);
}
