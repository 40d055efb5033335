import {
  API_VERSION,
  type StoredVirtualMachineInstanceReplicaSet,
  type VirtualMachineInstanceSpec,
} from "../../api/index.js";
import { type Frozen, mutableCopy, type OwnerReference } from "../../runtime/index.js";
import type { VirtualMachineInstance } from "../kinds.js";

type ReplicaSet = Frozen<StoredVirtualMachineInstanceReplicaSet>;

/** The owner reference on the VMIs a replica set controls (controller, blocking foreground deletion). */
export function replicaSetOwnerReference(replicaSet: ReplicaSet): OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind: "VirtualMachineInstanceReplicaSet",
    name: replicaSet.metadata?.name ?? "",
    uid: replicaSet.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * KubeVirt's base name for the VMIs: the template's name, else its generateName, else the replica
 * set's name, used as generateName as it is (the API server appends five characters, no dash).
 */
export function vmiBaseName(replicaSet: ReplicaSet): string {
  const metadata = replicaSet.spec.template.metadata;
  return metadata?.name || metadata?.generateName || (replicaSet.metadata?.name ?? "");
}

/**
 * A new VMI of the replica set (KubeVirt's scale-up): the template's labels and annotations, a
 * generated name, owned by the replica set, the template's spec as written. virt-api's mutating
 * webhook defaults it, as it does every VMI a user creates.
 */
export function vmiFromTemplate(replicaSet: ReplicaSet): VirtualMachineInstance {
  const template = replicaSet.spec.template;
  const labels = template.metadata?.labels;
  const annotations = template.metadata?.annotations;
  return {
    apiVersion: API_VERSION,
    kind: "VirtualMachineInstance",
    metadata: {
      generateName: vmiBaseName(replicaSet),
      namespace: replicaSet.metadata?.namespace ?? "",
      ...(labels ? { labels: { ...labels } } : {}),
      ...(annotations ? { annotations: { ...annotations } } : {}),
      ownerReferences: [replicaSetOwnerReference(replicaSet)],
    },
    spec: mutableCopy<VirtualMachineInstanceSpec>(template.spec ?? { domain: { devices: {} } }),
  };
}
