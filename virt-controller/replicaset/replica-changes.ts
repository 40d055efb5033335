import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import {
  type EventRecorder,
  type Expectations,
  type Frozen,
  isConflict,
  isNotFound,
  objectKey,
  type ReconcileRequest,
  type ResourceClient,
} from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import type { ReplicaFailure } from "./replica-set-status.js";
import { vmiFromTemplate } from "./vmi-from-template.js";

type Vmi = Frozen<VirtualMachineInstance>;
type ReplicaSet = Frozen<StoredVirtualMachineInstanceReplicaSet>;

export interface ReplicaChangeDeps {
  vmiClient: Pick<ResourceClient<VirtualMachineInstance>, "create" | "delete">;
  events: Pick<EventRecorder, "normal" | "warning">;
  /** Fed by the VMI informer (trackChildExpectations); lowered here for writes that failed. */
  expectations: Expectations;
}

/** Why a VMI is deleted: the events say so differently, as KubeVirt's do. */
export type DeletionCause = "surplus" | "finished";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Creates `count` VMIs from the template, side by side. The expectation is raised before the first
 * request, so no reconcile counts from a cache that does not show them yet; a create that failed
 * will never be seen and is taken off again. Returns the first failure.
 */
export async function createVmis(
  deps: ReplicaChangeDeps,
  request: ReconcileRequest,
  replicaSet: ReplicaSet,
  count: number,
): Promise<ReplicaFailure | undefined> {
  deps.expectations.expectCreations(request.key, count);
  const failures = await Promise.all(
    Array.from({ length: count }, async (): Promise<string | undefined> => {
      try {
        const created = await deps.vmiClient.create(vmiFromTemplate(replicaSet));
        const name = created.metadata?.name ?? "";
        request.log.info({ vmi: name }, "created a VMI of the replica set");
        deps.events.normal(
          replicaSet,
          "SuccessfulCreate",
          `Started the virtual machine by creating the new virtual machine instance ${name}`,
        );
        return undefined;
      } catch (error) {
        deps.expectations.creationObserved(request.key);
        deps.events.warning(
          replicaSet,
          "FailedCreate",
          `Error creating virtual machine instance: ${messageOf(error)}`,
        );
        return messageOf(error);
      }
    }),
  );
  const first = failures.find((failure) => failure !== undefined);
  return first === undefined ? undefined : { reason: "FailedCreate", message: first };
}

/**
 * Deletes these VMIs side by side, each on the uid the cache showed (a VMI of the same name made
 * since is not touched). One expectation names them all; a VMI already gone counts as deleted.
 */
export async function deleteVmis(
  deps: ReplicaChangeDeps,
  request: ReconcileRequest,
  replicaSet: ReplicaSet,
  victims: readonly { vmi: Vmi; cause: DeletionCause }[],
): Promise<ReplicaFailure | undefined> {
  deps.expectations.expectDeletionsOf(
    request.key,
    victims.map(({ vmi }) => objectKey(vmi)),
  );
  const failures = await Promise.all(
    victims.map(({ vmi, cause }) => deleteVmi(deps, request, replicaSet, vmi, cause)),
  );
  const first = failures.find((failure) => failure !== undefined);
  return first === undefined ? undefined : { reason: "FailedDelete", message: first };
}

async function deleteVmi(
  deps: ReplicaChangeDeps,
  request: ReconcileRequest,
  replicaSet: ReplicaSet,
  vmi: Vmi,
  cause: DeletionCause,
): Promise<string | undefined> {
  const name = vmi.metadata?.name ?? "";
  const uid = vmi.metadata?.uid ?? "";
  try {
    await deps.vmiClient.delete(
      { namespace: vmi.metadata?.namespace ?? "", name },
      {
        preconditions: { uid },
        // As a VM's stop: the guest gets the shutdown time its spec gives it.
        gracePeriodSeconds: vmi.spec.terminationGracePeriodSeconds ?? 30,
      },
    );
  } catch (error) {
    deps.expectations.deletionObservedOf(request.key, objectKey(vmi));
    // Gone, or replaced by another VMI of that name: nothing of ours is left to delete.
    if (isNotFound(error) || isConflict(error)) return undefined;
    const what = cause === "finished" ? "finished virtual machine" : "virtual machine instance";
    deps.events.warning(replicaSet, "FailedDelete", `Error deleting ${what} ${name}: ${messageOf(error)}`);
    return messageOf(error);
  }
  request.log.info({ vmi: name, cause }, "deleted a VMI of the replica set");
  deps.events.normal(
    replicaSet,
    "SuccessfulDelete",
    cause === "finished"
      ? `Deleted finished virtual machine: ${uid}`
      : `Stopped the virtual machine by deleting the virtual machine instance ${uid}`,
  );
  return undefined;
}
