// The credentials a VMI's images are pulled with: the `.dockerconfigjson` of each Secret its launcher
// pod lists in spec.imagePullSecrets, read from the pod's secret volume for it on this node
// (api/vmi/launcher-pull-secrets.ts; virt-controller mounts them). A pull secret that does not exist
// is skipped, as a kubelet skips one: the registry then refuses the pull and the VMI says so.
import { realpath } from "node:fs/promises";
import { LAUNCHER_PULL_SECRETS, pullSecretVolumeName } from "../../api/index.js";
import type { LauncherPodVolumes } from "./cloud-init-secrets.js";
import { readSecretKey } from "./secret-volume-files.js";

/** The dockerconfigjson texts, in the pod's order; none without the pod's volumes. */
export async function pullSecretConfigs(podVolumes: LauncherPodVolumes | undefined): Promise<string[]> {
  if (podVolumes === undefined) return [];
  const configs: string[] = [];
  const names = podVolumes.imagePullSecretNames();
  for (const [index, secretName] of names.entries()) {
    const podVolumeName = pullSecretVolumeName(index);
    const source = { owner: `imagePullSecrets[${index}]`, podVolumeName, secretName };
    let root: string;
    try {
      root = await realpath(podVolumes.secretVolumeDir(podVolumeName, secretName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // an optional Secret that is absent
      throw error;
    }
    const text = await readSecretKey(root, LAUNCHER_PULL_SECRETS.key, source);
    if (text !== undefined && text !== "") configs.push(text);
  }
  return configs;
}
