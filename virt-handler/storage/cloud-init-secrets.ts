// Cloud-init data a VMI keeps in Secrets (`secretRef`, `networkDataSecretRef` of cloudInitNoCloud and
// cloudInitConfigDrive), read the Kubernetes way: virt-controller gave the launcher pod one secret
// volume per reference (`<volume>-udata`, `<volume>-ndata`, as KubeVirt names them), the kubelet
// wrote it on this node with the node's credentials, and it is read here from that pod volume's
// directory. virt-handler never reads a Secret through the API, and the pod, being in the VMI's
// namespace, can only have fetched Secrets of that namespace.
import {
  CLOUD_INIT_SECRET_REFERENCES,
  type CloudInitSecretReference,
  cloudInitSecretVolumeName,
} from "../../api/index.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import type { ClaimVolume } from "./claim-disk.js";
import type { CloudInitData } from "./cloud-init.js";
import { readSecretKey, type SecretVolumeSource, secretVolumeRoot } from "./secret-volume-files.js";

/** The launcher pod's volumes on this node (vmi/launcher-pod-volumes.ts finds them). */
export interface LauncherPodVolumes {
  /**
   * The directory of the pod's secret volume `podVolumeName`, which the pod's spec must say holds
   * Secret `secretName` (kubelet's `pods/<uid>/volumes/kubernetes.io~secret/<name>`). Throws a
   * VmiConversionError when the pod is not known yet or carries no such volume.
   */
  secretVolumeDir(podVolumeName: string, secretName: string): string;
  /** The Secrets the pod's spec.imagePullSecrets lists, in order (none while the pod is unknown). */
  imagePullSecretNames(): readonly string[];
  /**
   * The pod's volume `podVolumeName` of claim `claimName`, where the kubelet mounted it on this node,
   * with the claim's size. Throws a VmiConversionError (VolumePreparationFailed: retried) while the
   * pod, the claim's binding or the mount is not there yet.
   */
  claimVolume(podVolumeName: string, claimName: string): Promise<ClaimVolume>;
}

/** The inline fields a reference replaces (a source sets one or the other, never both). */
const INLINE_FIELDS = {
  secretRef: ["userData", "userDataBase64"],
  networkDataSecretRef: ["networkData", "networkDataBase64"],
} as const satisfies Record<CloudInitSecretReference["field"], readonly string[]>;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * `data` with each secret reference replaced by the text it names (userData, networkData), read
 * from the launcher pod's volume. Data without references is returned as it is.
 */
export async function withSecretData(
  volumeName: string,
  data: CloudInitData,
  podVolumes: LauncherPodVolumes | undefined,
): Promise<CloudInitData> {
  let resolved = data;
  for (const reference of CLOUD_INIT_SECRET_REFERENCES) {
    if (data[reference.field] === undefined) continue;
    const source = keySourceOf(volumeName, data, reference);
    if (podVolumes === undefined) {
      throw new VmiConversionError(
        "UnsupportedVolume",
        `volume ${volumeName}: cloud-init ${reference.field} needs the launcher pod's volumes, which this virt-handler was not given`,
      );
    }
    const dir = podVolumes.secretVolumeDir(source.podVolumeName, source.secretName);
    const text = await readFirstKey(dir, reference.keys, source);
    resolved = { ...resolved, [INLINE_FIELDS[reference.field][0]]: text };
    delete resolved[reference.field];
  }
  return resolved;
}

function keySourceOf(
  volumeName: string,
  data: CloudInitData,
  reference: CloudInitSecretReference,
): SecretVolumeSource {
  const secretName = data[reference.field]?.name;
  if (!secretName) {
    throw new VmiConversionError("InvalidSpec", `volume ${volumeName}: ${reference.field} has no name`);
  }
  const inline = INLINE_FIELDS[reference.field].filter((field) => data[field] !== undefined);
  if (inline.length > 0) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${volumeName}: set ${reference.field} or ${inline.join(", ")}, not both`,
    );
  }
  const podVolumeName = cloudInitSecretVolumeName(volumeName, reference);
  if (podVolumeName.length > 63 || !DNS1123_LABEL.test(podVolumeName)) {
    throw new VmiConversionError(
      "InvalidSpec",
      `volume ${volumeName}: with a ${reference.field}, the volume name must be a lower-case DNS label of at most ${62 - reference.suffix.length} characters (its launcher pod volume is ${podVolumeName})`,
    );
  }
  return { owner: `volume ${volumeName}`, podVolumeName, secretName };
}

/** The first of `keys` the volume holds. The kubelet's own symlinks are followed, within the volume only. */
async function readFirstKey(
  dir: string,
  keys: readonly string[],
  source: SecretVolumeSource,
): Promise<string> {
  const root = await secretVolumeRoot(dir, source);
  for (const key of keys) {
    const text = await readSecretKey(root, key, source);
    if (text !== undefined) return text;
  }
  throw new VmiConversionError(
    "InvalidSpec",
    `${source.owner}: secret "${source.secretName}" has no key ${keys.join(" or ")}`,
  );
}
