/**
 * `virtctl create preference`: a VirtualMachineClusterPreference (or, `--namespaced` or with `-n`,
 * a VirtualMachinePreference) manifest from flags, as KubeVirt's virtctl builds it
 * (pkg/virtctl/create/preference): `--cpu-topology`, `--volume-storage-class`, `--machine-type`;
 * the name defaults to `clusterpreference-xxxxx` / `preference-xxxxx`. Pure apart from the name.
 */
import {
  INSTANCETYPE_API_VERSION,
  PREFERRED_CPU_TOPOLOGIES,
  type VirtualMachineClusterPreference,
  type VirtualMachinePreference,
  type VirtualMachinePreferenceSpec,
} from "../../api/index.js";
import { generatedSuffix } from "./instancetype-manifest.js";
import { flagError } from "./vm-sizing.js";

export interface CreatePreferenceFlags {
  readonly name?: string | undefined;
  readonly cpuTopology?: string | undefined;
  readonly volumeStorageClass?: string | undefined;
  readonly machineType?: string | undefined;
  readonly namespaced?: boolean | undefined;
  readonly namespace?: string | undefined;
}

export function buildPreferenceManifest(
  flags: CreatePreferenceFlags,
  randomSuffix: () => string = generatedSuffix,
): VirtualMachinePreference | VirtualMachineClusterPreference {
  const spec: VirtualMachinePreferenceSpec = {};
  if (flags.cpuTopology !== undefined) {
    // KubeVirt's check accepts the deprecated `prefer*` spellings too; its message names the current ones.
    const topology = PREFERRED_CPU_TOPOLOGIES.find((offered) => offered === flags.cpuTopology);
    if (!topology)
      throw flagError("cpu-topology", "CPU topology must have a value of sockets, cores, threads or spread");
    spec.cpu = { preferredCPUTopology: topology };
  }
  if (flags.volumeStorageClass !== undefined)
    spec.volumes = { preferredStorageClassName: flags.volumeStorageClass };
  if (flags.machineType !== undefined) spec.machine = { preferredMachineType: flags.machineType };
  const namespaced = flags.namespaced === true || flags.namespace !== undefined;
  const name = flags.name || `${namespaced ? "preference" : "clusterpreference"}-${randomSuffix()}`;
  return {
    apiVersion: INSTANCETYPE_API_VERSION,
    kind: namespaced ? "VirtualMachinePreference" : "VirtualMachineClusterPreference",
    metadata: { name, ...(namespaced && flags.namespace ? { namespace: flags.namespace } : {}) },
    spec,
  } as VirtualMachinePreference | VirtualMachineClusterPreference;
}
