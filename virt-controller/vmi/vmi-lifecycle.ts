import { FINALIZERS, LABELS, type VirtualMachineInstancePhase } from "../../api/index.js";
import {
  type ConditionUpdate,
  type Frozen,
  findCondition,
  mutableCopy,
  removeCondition,
  setCondition,
  wireTimeMillis,
} from "../../runtime/index.js";
import type { Pod, VirtualMachineInstance } from "../kinds.js";
import { isFinal, phaseOf } from "../vmi-phase.js";
import { CLAIM_FAILURE_REASONS, DATA_VOLUMES_READY } from "./claim-check.js";
import {
  imagePullError,
  podDownReason,
  qosClassOf,
  runningNode,
  unscheduledCondition,
} from "./launcher-pod-state.js";
import { FAILED_CREATE_POD_REASON } from "./pod-create-failure.js";

type AnyPod = Frozen<Pod> | Pod;

export interface LifecycleInput {
  vmi: Frozen<VirtualMachineInstance>;
  /** The VMI's launcher pod, if it has one (the one just created included). */
  pod: AnyPod | undefined;
  /** Why the spec cannot run (semantic validation), or undefined. */
  invalidSpec: string | undefined;
  /** Why this reconcile's launcher pod create failed or was not tried (KubeVirt's sync error). */
  podCreateFailure?: SyncFailure | undefined;
  nowMs: number;
}

/** Failure reasons of a VMI whose launcher pod ended or vanished before the VM ran. */
export const VMI_FAILURE_REASONS = {
  podFailed: "PodFailed",
  podNotExists: "PodNotExists",
  deleted: "DeletedBeforeScheduled",
} as const;

const PULL_ERRORS = new Set(["ErrImagePull", "ImagePullBackOff"]);
/** The Synchronized reasons of a Pending VMI whose pod could not be made: they go once it is. */
const POD_CREATE_REASONS: ReadonlySet<string> = new Set([
  FAILED_CREATE_POD_REASON,
  ...Object.values(CLAIM_FAILURE_REASONS),
]);

/** A reason and message for the Synchronized=False condition (or another condition type). */
export interface SyncFailure {
  reason: string;
  message: string;
  /** Synchronized unless given (DataVolumesReady while a DataVolume is not filled yet). */
  conditionType?: string;
}

/**
 * The VMI as virt-controller wants it, given its launcher pod: phases Pending → Scheduling →
 * Scheduled (several steps at once when the pod is already further along, as after a restart)
 * or Failed, with conditions, finalizer, node label, activePods, qosClass and phase transition
 * times. From Scheduled on the VMI is virt-handler's, except that a pod failing or vanishing
 * before the VM runs fails it. Pure: returns a changed copy, never touches `input.vmi`.
 */
export function nextVmiState(input: LifecycleInput): VirtualMachineInstance {
  const vmi = mutableCopy(input.vmi) as VirtualMachineInstance;
  vmi.status ??= {};
  for (let step = 0; step < 3; step++) {
    const before = phaseOf(vmi);
    applyPhaseRule(vmi, input);
    if (phaseOf(vmi) === before) break;
  }
  if (isFinal(vmi) && !vmi.status.nodeName) removeFinalizer(vmi);
  // Nothing to say stays nothing: an empty status must not look like a change.
  if (input.vmi.status === undefined && Object.keys(vmi.status).length === 0) delete vmi.status;
  return vmi;
}

function applyPhaseRule(vmi: VirtualMachineInstance, input: LifecycleInput): void {
  const phase = phaseOf(vmi);
  if (phase === "Pending") pending(vmi, input);
  else if (phase === "Scheduling") scheduling(vmi, input);
  else if (phase === "Scheduled") scheduled(vmi, input);
}

function pending(vmi: VirtualMachineInstance, input: LifecycleInput): void {
  const status = vmi.status ?? {};
  if (input.invalidSpec) {
    status.phase = "Pending";
    const message = input.invalidSpec;
    setConditionOf(vmi, { type: "Failure", status: "True", reason: "InvalidSpec", message }, input);
    return;
  }
  status.conditions = removeCondition(status.conditions, "Failure");
  syncPodCreateFailure(vmi, input);
  if (status.conditions?.length === 0) delete status.conditions;
  if (input.pod) {
    moveTo(vmi, "Scheduling", input);
    vmi.metadata ??= {};
    const finalizers = vmi.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZERS.vmController))
      vmi.metadata.finalizers = [...finalizers, FINALIZERS.vmController];
  } else if (vmi.metadata?.deletionTimestamp) {
    fail(vmi, DELETED_BEFORE_SCHEDULED, input);
  }
}

/**
 * A refused pod create shows as Synchronized=False with its reason (KubeVirt's CheckFailure);
 * once a create gets through, the condition goes. Other Synchronized reasons are not ours here.
 */
function syncPodCreateFailure(vmi: VirtualMachineInstance, input: LifecycleInput): void {
  const failure = input.podCreateFailure;
  const synchronized = findCondition(vmi.status?.conditions, "Synchronized");
  const type = failure?.conditionType ?? "Synchronized";
  if (failure) {
    // Visibly Pending, as with an invalid spec: the VMI waits for the next attempt.
    if (vmi.status) vmi.status.phase = "Pending";
    syncCondition(vmi, type, { status: "False", reason: failure.reason, message: failure.message }, input);
  }
  if (type !== "Synchronized" || !failure) {
    if (POD_CREATE_REASONS.has(synchronized?.reason ?? ""))
      syncCondition(vmi, "Synchronized", undefined, input);
  }
  if (type !== DATA_VOLUMES_READY.type && (vmi.spec?.volumes ?? []).some((volume) => volume.dataVolume)) {
    syncCondition(
      vmi,
      DATA_VOLUMES_READY.type,
      {
        status: "True",
        reason: DATA_VOLUMES_READY.ready,
        message: "All of the VMI's DVs are bound and not running",
      },
      input,
    );
  }
}

function scheduling(vmi: VirtualMachineInstance, input: LifecycleInput): void {
  const pod = input.pod;
  const failure =
    failureBeforeRunning(pod) ?? (vmi.metadata?.deletionTimestamp ? DELETED_BEFORE_SCHEDULED : undefined);
  if (failure || !pod) {
    fail(vmi, failure ?? DELETED_BEFORE_SCHEDULED, input);
    return;
  }
  const status = vmi.status ?? {};
  const qos = qosClassOf(pod);
  if (qos) status.qosClass = qos;
  const unscheduled = unscheduledCondition(pod);
  syncCondition(vmi, "PodScheduled", unscheduled && { status: "False", ...unscheduled }, input);
  const pullError = imagePullError(pod);
  const synchronized = findCondition(status.conditions, "Synchronized");
  if (pullError || PULL_ERRORS.has(synchronized?.reason ?? ""))
    syncCondition(vmi, "Synchronized", pullError && { status: "False", ...pullError }, input);
  const node = runningNode(pod);
  if (node) handOver(vmi, pod, node, input);
  else setConditionOf(vmi, GUEST_NOT_RUNNING, input);
}

function scheduled(vmi: VirtualMachineInstance, input: LifecycleInput): void {
  const failure = failureBeforeRunning(input.pod);
  if (failure) fail(vmi, failure, input);
}

interface Failure {
  reason: string;
  message: string;
  /** The Ready condition's reason (KubeVirt's VMI_READY_REASONS). */
  readyReason: string;
}

const DELETED_BEFORE_SCHEDULED: Failure = {
  reason: VMI_FAILURE_REASONS.deleted,
  message: "the VMI was deleted before it was scheduled",
  readyReason: "PodNotExists",
};

const GUEST_NOT_RUNNING: ConditionUpdate = {
  type: "Ready",
  status: "False",
  reason: "GuestNotRunning",
  message: "Guest VM is not reported as running",
};

/** The launcher pod vanished or ended: the VM cannot run under this VMI. */
function failureBeforeRunning(pod: AnyPod | undefined): Failure | undefined {
  if (!pod) {
    return {
      reason: VMI_FAILURE_REASONS.podNotExists,
      message: "the launcher pod vanished before the VM ran",
      readyReason: "PodNotExists",
    };
  }
  const down = podDownReason(pod);
  return down
    ? { reason: VMI_FAILURE_REASONS.podFailed, message: down, readyReason: "PodTerminating" }
    : undefined;
}

/** The pod runs on `node`: the VMI goes to that node's virt-handler. */
function handOver(vmi: VirtualMachineInstance, pod: AnyPod, node: string, input: LifecycleInput): void {
  const status = vmi.status ?? {};
  status.nodeName = node;
  status.activePods = { [pod.metadata?.uid ?? ""]: node };
  vmi.metadata ??= {};
  vmi.metadata.labels = { ...(vmi.metadata.labels ?? {}), [LABELS.nodeName]: node };
  syncCondition(vmi, "PodScheduled", undefined, input);
  syncCondition(vmi, "Synchronized", undefined, input);
  setConditionOf(vmi, GUEST_NOT_RUNNING, input);
  moveTo(vmi, "Scheduled", input);
}

function fail(vmi: VirtualMachineInstance, failure: Failure, input: LifecycleInput): void {
  const status = vmi.status ?? {};
  status.reason = failure.reason;
  setConditionOf(
    vmi,
    { type: "Ready", status: "False", reason: failure.readyReason, message: failure.message },
    input,
  );
  moveTo(vmi, "Failed", input);
}

function moveTo(
  vmi: VirtualMachineInstance,
  phase: VirtualMachineInstancePhase,
  input: LifecycleInput,
): void {
  const status = vmi.status ?? {};
  vmi.status = status;
  if (status.phase === phase) return;
  status.phase = phase;
  status.phaseTransitionTimestamps = [
    ...(status.phaseTransitionTimestamps ?? []),
    { phase, phaseTransitionTimestamp: wireTimeMillis(input.nowMs) },
  ];
}

function setConditionOf(vmi: VirtualMachineInstance, update: ConditionUpdate, input: LifecycleInput): void {
  const status = vmi.status ?? {};
  vmi.status = status;
  status.conditions = setCondition(status.conditions, update, input.nowMs);
}

/** Sets `type` to `update`, or removes it when there is nothing to say. */
function syncCondition(
  vmi: VirtualMachineInstance,
  type: string,
  update: Omit<ConditionUpdate, "type"> | undefined,
  input: LifecycleInput,
): void {
  const status = vmi.status ?? {};
  if (update) setConditionOf(vmi, { type, ...update }, input);
  else if (findCondition(status.conditions, type))
    status.conditions = removeCondition(status.conditions, type);
}

function removeFinalizer(vmi: VirtualMachineInstance): void {
  const finalizers = vmi.metadata?.finalizers;
  if (!vmi.metadata || !finalizers?.includes(FINALIZERS.vmController)) return;
  const kept = finalizers.filter((finalizer) => finalizer !== FINALIZERS.vmController);
  if (kept.length > 0) vmi.metadata.finalizers = kept;
  else delete vmi.metadata.finalizers;
}
