// A DataVolume's status from what its controller sees, as CDI reports it: the phase (Pending, then
// ImportScheduled/CloneScheduled while the importer pod waits for a node, ImportInProgress/
// CloneInProgress while it runs, Succeeded once it exited 0), the progress, the importer's restarts,
// and the Bound, Running and Ready conditions. An importer that failed and restarts keeps the phase
// and says why in Running=False reason Error (what KubeVirt's VM shows as DataVolumeError). Pure.
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { DataVolumePhase, DataVolumeStatus } from "../../api/index.js";
import { type ConditionUpdate, type Frozen, mutableCopy, setCondition } from "../../runtime/index.js";
import type { Pod } from "../kinds.js";

export interface DataVolumeObservation {
  readonly status: Frozen<DataVolumeStatus> | undefined;
  readonly claimName: string;
  readonly claim: Frozen<IPersistentVolumeClaim> | undefined;
  /** The importer pod, when there is one. */
  readonly importer: Frozen<Pod> | undefined;
  readonly clone: boolean;
  /** The import finished (its pod exited 0, and was deleted since). */
  readonly done: boolean;
  /** Why the DataVolume cannot be filled as it is (its spec, a claim in the way, a missing clone source). */
  readonly blocked?: { readonly reason: string; readonly message: string } | undefined;
  /** The importer's progress metric, in percent, when it could be read. */
  readonly progressPercent?: number | undefined;
  readonly nowMs: number;
}

export function dataVolumeStatus(observed: DataVolumeObservation): DataVolumeStatus {
  const status: DataVolumeStatus = observed.status ? mutableCopy<DataVolumeStatus>(observed.status) : {};
  const at = observed.nowMs;
  const set = (update: ConditionUpdate) => {
    status.conditions = setCondition(status.conditions ?? [], update, at);
  };
  status.claimName = observed.claimName;
  status.phase = phaseOf(observed);
  status.progress = progressOf(observed, status.progress);
  const container = observed.importer?.status?.containerStatuses?.[0];
  status.restartCount = Math.max(status.restartCount ?? 0, container?.restartCount ?? 0);
  const claimPhase = observed.claim?.status?.phase;
  set(
    observed.claim === undefined
      ? { type: "Bound", status: "Unknown", reason: "NotFound", message: "No PVC found" }
      : claimPhase === "Bound"
        ? { type: "Bound", status: "True", reason: "Bound", message: `PVC ${observed.claimName} Bound` }
        : {
            type: "Bound",
            status: "False",
            reason: claimPhase ?? "Pending",
            message: `PVC ${observed.claimName} ${claimPhase ?? "Pending"}`,
          },
  );
  set(runningCondition(observed));
  set(
    status.phase === "Succeeded"
      ? { type: "Ready", status: "True", reason: "", message: "" }
      : observed.blocked
        ? {
            type: "Ready",
            status: "False",
            reason: observed.blocked.reason,
            message: observed.blocked.message,
          }
        : { type: "Ready", status: "False", reason: "TransferRunning", message: "" },
  );
  return status;
}

function phaseOf(observed: DataVolumeObservation): DataVolumePhase {
  if (observed.done) return "Succeeded";
  if (observed.blocked || observed.claim === undefined || observed.importer === undefined) return "Pending";
  const running = observed.importer.status?.phase === "Running";
  if (observed.clone) return running ? "CloneInProgress" : "CloneScheduled";
  return running ? "ImportInProgress" : "ImportScheduled";
}

function progressOf(observed: DataVolumeObservation, before: string | undefined): string {
  if (observed.done) return "100.0%";
  if (observed.progressPercent !== undefined) return `${observed.progressPercent.toFixed(2)}%`;
  return before ?? "N/A";
}

function runningCondition(observed: DataVolumeObservation): ConditionUpdate {
  if (observed.done) return { type: "Running", status: "False", reason: "Completed", message: "" };
  const container = observed.importer?.status?.containerStatuses?.[0];
  if (container?.state?.running)
    return { type: "Running", status: "True", reason: "Pod is running", message: "" };
  const failed = container?.state?.terminated ?? container?.lastState?.terminated;
  if (failed !== undefined && failed.exitCode !== 0) {
    // CDI's Running=False reason Error: the importer failed (and restarts), with its message.
    return {
      type: "Running",
      status: "False",
      reason: "Error",
      message: failed.message ?? failed.reason ?? "",
    };
  }
  const waiting = container?.state?.waiting;
  if (waiting?.reason)
    return { type: "Running", status: "False", reason: waiting.reason, message: waiting.message ?? "" };
  return { type: "Running", status: "False", reason: "", message: "" };
}
