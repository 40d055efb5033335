import { VMI_CONDITION_TYPES, VMI_READY_REASONS } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { isFinal } from "../vmi-phase.js";

type Vmi = Frozen<VirtualMachineInstance>;

/** A replica set's VMIs as its controller counts them (KubeVirt's filterActiveVMIs and friends). */
export interface ReplicaVmis {
  /** Not final, not being deleted, not terminating-unknown: these count towards `replicas`. */
  active: Vmi[];
  /** Succeeded or Failed, or whose pod is terminating (Ready=False, PodTerminating): deleted and replaced. */
  finished: Vmi[];
  /** The active ones whose Ready condition is True. */
  ready: Vmi[];
}

function readyCondition(vmi: Vmi) {
  return vmi.status?.conditions?.find((condition) => condition.type === VMI_CONDITION_TYPES.ready);
}

/** Ready=True: the guest runs and its readiness probe (if any) passed. */
export function isReady(vmi: Vmi): boolean {
  return readyCondition(vmi)?.status === "True";
}

/** Its launcher pod is going away, so the VMI will not run on (KubeVirt's "unknown" VMIs). */
function isTerminatingUnknown(vmi: Vmi): boolean {
  const ready = readyCondition(vmi);
  return ready?.status === "False" && ready.reason === VMI_READY_REASONS.podTerminating;
}

/** VMIs being deleted are in neither list: they are on their way out and count for nothing. */
export function classifyVmis(vmis: readonly Vmi[]): ReplicaVmis {
  const result: ReplicaVmis = { active: [], finished: [], ready: [] };
  for (const vmi of vmis) {
    if (vmi.metadata?.deletionTimestamp) continue;
    if (isFinal(vmi) || isTerminatingUnknown(vmi)) {
      result.finished.push(vmi);
      continue;
    }
    result.active.push(vmi);
    if (isReady(vmi)) result.ready.push(vmi);
  }
  return result;
}
