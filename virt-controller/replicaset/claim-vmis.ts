import type { StoredVirtualMachineInstanceReplicaSet } from "../../api/index.js";
import { type Frozen, isNotFound, type LabelMatcher, type ResourceClient } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";
import { replicaSetOwnerReference } from "./vmi-from-template.js";

type Vmi = Frozen<VirtualMachineInstance>;
type ReplicaSet = Frozen<StoredVirtualMachineInstanceReplicaSet>;

export interface ClaimRequest {
  replicaSet: ReplicaSet;
  matches: LabelMatcher;
  /** The VMIs it controls and the orphans of its namespace. */
  candidates: readonly Vmi[];
  vmis: Pick<ResourceClient<VirtualMachineInstance>, "jsonPatch">;
  /**
   * Whether it may adopt: read from the API, not the cache, just before the first adoption
   * (kubernetes#42639), so that a replica set deleted meanwhile, or replaced by one of the same
   * name, adopts nothing.
   */
  mayAdopt: () => Promise<boolean>;
}

function controllerOf(vmi: Vmi) {
  return vmi.metadata?.ownerReferences?.find((reference) => reference.controller === true);
}

function refOf(vmi: Vmi) {
  return { namespace: vmi.metadata?.namespace ?? "", name: vmi.metadata?.name ?? "" };
}

/**
 * Kubernetes' ControllerRefManager, as KubeVirt's replica sets use it: returns the VMIs the
 * replica set controls after adopting the orphans its selector matches and releasing the ones it
 * no longer matches. A replica set being deleted adopts and releases nothing.
 */
export async function claimVmis(request: ClaimRequest): Promise<Vmi[]> {
  const { replicaSet, matches } = request;
  const uid = replicaSet.metadata?.uid ?? "";
  const deleting = Boolean(replicaSet.metadata?.deletionTimestamp);
  const claimed: Vmi[] = [];
  let adoptionAllowed: boolean | undefined;
  for (const vmi of request.candidates) {
    const controller = controllerOf(vmi);
    const selected = matches(vmi.metadata?.labels);
    if (controller) {
      if (controller.uid !== uid) continue;
      if (selected) claimed.push(vmi);
      else if (!deleting) await release(request, vmi);
      continue;
    }
    if (!selected || deleting || vmi.metadata?.deletionTimestamp) continue;
    adoptionAllowed ??= await request.mayAdopt();
    if (!adoptionAllowed) continue;
    const adopted = await adopt(request, vmi);
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

/**
 * Adds the controller reference, on the version the cache showed (a `test` of its
 * resourceVersion): a VMI someone else adopted or relabelled meanwhile is not taken.
 */
async function adopt(request: ClaimRequest, vmi: Vmi): Promise<Vmi | undefined> {
  const reference = replicaSetOwnerReference(request.replicaSet);
  const existing = vmi.metadata?.ownerReferences;
  try {
    return await request.vmis.jsonPatch(refOf(vmi), [
      { op: "test", path: "/metadata/resourceVersion", value: vmi.metadata?.resourceVersion },
      existing
        ? { op: "add", path: "/metadata/ownerReferences/-", value: reference }
        : { op: "add", path: "/metadata/ownerReferences", value: [reference] },
    ]);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw new Error(`cannot adopt VirtualMachineInstance ${refOf(vmi).name}`, { cause: error });
  }
}

/**
 * Removes our reference, tested by its uid at its position rather than by resourceVersion: VMIs
 * change often (their status is written by virt-handler), and only our entry matters here.
 */
async function release(request: ClaimRequest, vmi: Vmi): Promise<void> {
  const uid = request.replicaSet.metadata?.uid ?? "";
  const index = vmi.metadata?.ownerReferences?.findIndex((reference) => reference.uid === uid) ?? -1;
  if (index < 0) return;
  try {
    await request.vmis.jsonPatch(refOf(vmi), [
      { op: "test", path: `/metadata/ownerReferences/${index}/uid`, value: uid },
      { op: "remove", path: `/metadata/ownerReferences/${index}` },
    ]);
  } catch (error) {
    if (isNotFound(error)) return;
    throw new Error(`cannot release VirtualMachineInstance ${refOf(vmi).name}`, { cause: error });
  }
}
