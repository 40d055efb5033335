import type { KubeVirt } from "../kubevirt/kubevirt.js";
import type { VirtualMachineInstanceReplicaSet } from "../replicaset/virtual-machine-instance-replica-set.js";
import { fillApiDefaults } from "./api-defaults.js";

/** A replica set with KubeVirt's defaults: one replica, API defaults on the template. Pure. */
export function defaultVirtualMachineInstanceReplicaSet(
  replicaSet: VirtualMachineInstanceReplicaSet,
): VirtualMachineInstanceReplicaSet {
  const copy = structuredClone(replicaSet);
  copy.spec.replicas ??= 1;
  if (copy.spec.template.spec !== undefined) fillApiDefaults(copy.spec.template.spec);
  return copy;
}

/**
 * A KubeVirt CR with the operator's defaults: workloads are protected on uninstall, images are
 * pulled if not present, and workload updates evict 10 VMIs per minute. Pure.
 */
export function defaultKubeVirt(kubevirt: KubeVirt): KubeVirt {
  const copy = structuredClone(kubevirt);
  const spec = copy.spec;
  spec.uninstallStrategy ??= "BlockUninstallIfWorkloadsExist";
  spec.imagePullPolicy ??= "IfNotPresent";
  if (spec.workloadUpdateStrategy !== undefined) {
    spec.workloadUpdateStrategy.batchEvictionSize ??= 10;
    spec.workloadUpdateStrategy.batchEvictionInterval ??= "1m0s";
  }
  return copy;
}
