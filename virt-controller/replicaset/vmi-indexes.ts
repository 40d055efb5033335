import { byControllerUid, type Frozen, type SharedInformer } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";

type Vmi = Frozen<VirtualMachineInstance>;

/** VMIs by the uid of their controller (any kind: a uid names one object). */
export const CONTROLLER_UID_INDEX = "replicaset:controller-uid";
/** VMIs without a controller, by namespace: what a replica set may adopt. */
export const ORPHANS_INDEX = "replicaset:orphans-by-namespace";

function orphansByNamespace(vmi: Vmi): readonly string[] {
  const controlled = vmi.metadata?.ownerReferences?.some((reference) => reference.controller === true);
  return controlled ? [] : [vmi.metadata?.namespace ?? ""];
}

/** The indexes the replica set controller asks of the shared VMI informer. */
export const vmiIndexers = {
  [CONTROLLER_UID_INDEX]: byControllerUid<VirtualMachineInstance>,
  [ORPHANS_INDEX]: orphansByNamespace,
} as const;

/** What a replica set may claim: the VMIs it controls and the orphans of its namespace. */
export function claimCandidates(
  vmis: Pick<SharedInformer<VirtualMachineInstance>, "byIndex">,
  replicaSet: { readonly metadata?: { readonly uid?: string; readonly namespace?: string } },
): Vmi[] {
  return [
    ...vmis.byIndex(CONTROLLER_UID_INDEX, replicaSet.metadata?.uid ?? ""),
    ...vmis.byIndex(ORPHANS_INDEX, replicaSet.metadata?.namespace ?? ""),
  ];
}
