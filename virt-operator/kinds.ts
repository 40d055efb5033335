/** The kubevirt.io kinds virt-operator reads and writes, declared once in api/. */
export {
  kubeVirtKind,
  type StoredKubeVirt as KubeVirt,
  type StoredVirtualMachine as VirtualMachine,
  type StoredVirtualMachineInstance as VirtualMachineInstance,
  vmiKind,
  vmKind,
} from "../api/index.js";
