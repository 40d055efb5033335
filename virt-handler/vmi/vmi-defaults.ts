// The VMI as the converter should see it: KubeVirt's defaults for the cluster's current
// configuration applied (virt-controller applies them too; the handler never relies on that).
import {
  clusterDefaultsFrom,
  defaultVirtualMachineInstance,
  type KubeVirtConfiguration,
} from "../../api/index.js";
import { type Frozen, mutableCopy } from "../../runtime/index.js";
import type { Vmi } from "../kinds.js";

export function withClusterDefaults(
  vmi: Frozen<Vmi>,
  configuration: Frozen<KubeVirtConfiguration> | undefined,
): Vmi {
  const cluster = clusterDefaultsFrom(
    configuration === undefined ? undefined : mutableCopy<KubeVirtConfiguration>(configuration),
  );
  return defaultVirtualMachineInstance(mutableCopy<Vmi>(vmi), cluster) as Vmi;
}
