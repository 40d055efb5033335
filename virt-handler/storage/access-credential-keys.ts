// The SSH public keys spec.accessCredentials propagates through cloud-init, read as KubeVirt's
// launcher reads them (resolveSSHPublicKeys): every key of each Secret, from the launcher pod's
// `<secretName>-access-cred` volume on this node, in the order of spec.accessCredentials and of the
// key names; empty keys are skipped, and a key may hold several lines (several public keys). The
// kubelet fetched the Secret for the VMI's own pod, so virt-handler needs no right to read Secrets.
import {
  accessCredentialVolumeName,
  type CloudInitKeyPropagation,
  propagatedKeySecrets,
  type VirtualMachineInstanceSpec,
} from "../../api/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import type { LauncherPodVolumes } from "./cloud-init-secrets.js";
import { readSecretKey, secretKeyNames, secretVolumeRoot } from "./secret-volume-files.js";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The public keys for the guest's `propagation` data source (NoCloud or ConfigDrive meta-data). */
export async function propagatedPublicKeys(
  spec: Pick<VirtualMachineInstanceSpec, "accessCredentials">,
  propagation: CloudInitKeyPropagation,
  podVolumes: LauncherPodVolumes | undefined,
): Promise<string[]> {
  const keys: string[] = [];
  for (const secretName of propagatedKeySecrets(spec, propagation)) {
    const owner = `spec.accessCredentials (secret "${secretName}", ${propagation})`;
    const podVolumeName = accessCredentialVolumeName(secretName);
    if (podVolumeName.length > 63 || !DNS1123_LABEL.test(podVolumeName)) {
      throw new VmiConversionError(
        "InvalidSpec",
        `${owner}: the secret's name must be a DNS label of at most 51 characters to be mounted into the launcher pod (as ${podVolumeName})`,
      );
    }
    if (podVolumes === undefined) {
      throw new VmiConversionError(
        "UnsupportedVolume",
        `${owner}: needs the launcher pod's volumes, which this virt-handler was not given`,
      );
    }
    const source = { owner, podVolumeName, secretName };
    const root = await secretVolumeRoot(podVolumes.secretVolumeDir(podVolumeName, secretName), source);
    for (const name of await secretKeyNames(root)) {
      const text = await readSecretKey(root, name, source);
      if (text !== undefined && text !== "") keys.push(text);
    }
  }
  return keys;
}
