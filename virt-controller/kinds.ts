/**
 * The kinds virt-controller reads and writes. kubevirt.io kinds are declared once in api/, the
 * core kinds in runtime/; core/v1 object types come from kubernetes-models (types only).
 */
import type { IPod } from "kubernetes-models/v1/Pod";

export {
  kubeVirtKind,
  type StoredKubeVirt as KubeVirt,
  type StoredVirtualMachine as VirtualMachine,
  type StoredVirtualMachineInstance as VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "../api/index.js";
export { persistentVolumeClaimKind, podKind } from "../runtime/index.js";
export type Pod = IPod;
