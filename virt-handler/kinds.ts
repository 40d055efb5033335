// The kinds virt-handler reads and writes, described for the runtime's clients and informers.
// kubevirt.io kinds are declared once in api/, the core kinds in runtime/; core/v1 object types
// come from kubernetes-models (types only).
import type { INode } from "kubernetes-models/v1/Node";
import type { IPod } from "kubernetes-models/v1/Pod";

export {
  kubeVirtKind,
  type StoredKubeVirt as KubeVirt,
  type StoredVirtualMachineInstance as Vmi,
  vmiKind,
} from "../api/index.js";
export { nodeKind, podKind } from "../runtime/index.js";

export type Pod = IPod;
export type Node = INode;
