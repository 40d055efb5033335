// The launcher pod's volumes for the Secrets a VMI's cloud-init references (KubeVirt's
// rendervolumes.go, handleCloudInitNoCloud / handleCloudInitConfigDrive): each secretRef becomes a
// `secret` volume of the pod, so the kubelet fetches the Secret with the node's credentials and
// virt-handler reads it from the pod's volume directory on the node. virt-handler needs no right
// to read Secrets, and a VMI reaches only Secrets of its own namespace: a pod's secret volume
// always names a Secret of the pod's namespace, which is the VMI's. The SSH key Secrets of
// spec.accessCredentials that cloud-init propagates travel the same way (handleAccessCredentials).
import {
  accessCredentialVolumeName,
  CLOUD_INIT_SECRET_REFERENCES,
  cloudInitSecretVolumeName,
  propagatedKeySecrets,
  type VirtualMachineInstanceSpec,
} from "../../api/index.js";
import type { Pod } from "../kinds.js";

type PodSpec = NonNullable<Pod["spec"]>;
type PodVolume = NonNullable<PodSpec["volumes"]>[number];
type VolumeMount = NonNullable<PodSpec["containers"][number]["volumeMounts"]>[number];

/** Where KubeVirt's launcher mounts them (its config.SecretSourceDir), one directory per VMI volume. */
export const SECRET_SOURCE_DIR = "/var/run/kubevirt-private/secret";

// A pod volume name is a DNS-1123 label (the API server refuses the pod otherwise).
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface LauncherSecretVolumes {
  volumes: PodVolume[];
  /** Mounts of the `compute` container. */
  volumeMounts: VolumeMount[];
}

/**
 * `<volume>-udata` and `<volume>-ndata` secret volumes, their keys mounted (subPath, read-only)
 * under /var/run/kubevirt-private/secret/<volume>/. A reference whose pod volume name would not be
 * a DNS label (a VMI volume name of more than 57 characters, or not lower case) gets no volume:
 * the pod could not be created at all, and virt-handler fails the VMI with that reason instead.
 */
export function cloudInitSecretVolumes(spec: VirtualMachineInstanceSpec): LauncherSecretVolumes {
  const rendered: LauncherSecretVolumes = { volumes: [], volumeMounts: [] };
  for (const volume of spec.volumes ?? []) {
    const source = volume.cloudInitNoCloud ?? volume.cloudInitConfigDrive;
    if (source === undefined) continue;
    for (const reference of CLOUD_INIT_SECRET_REFERENCES) {
      const secretName = source[reference.field]?.name;
      const podVolumeName = cloudInitSecretVolumeName(volume.name, reference);
      if (!secretName || !isDnsLabel(podVolumeName)) continue;
      rendered.volumes.push({ name: podVolumeName, secret: { secretName } });
      for (const key of reference.keys) {
        rendered.volumeMounts.push({
          name: podVolumeName,
          mountPath: `${SECRET_SOURCE_DIR}/${volume.name}/${key}`,
          subPath: key,
          readOnly: true,
        });
      }
    }
  }
  const accessCredentials = accessCredentialSecretVolumes(spec);
  rendered.volumes.push(...accessCredentials.volumes);
  rendered.volumeMounts.push(...accessCredentials.volumeMounts);
  return rendered;
}

/**
 * One `<secretName>-access-cred` secret volume per Secret of an SSH key that cloud-init propagates
 * (noCloud, configDrive), mounted whole and read-only at
 * /var/run/kubevirt-private/secret/<secretName>-access-cred/: every key of it is a public key.
 * Credentials through the guest agent are refused at admission, so they get none. A Secret whose
 * volume name would not be a DNS label (a name with dots, or over 51 characters) gets no volume,
 * for the reason given above.
 */
export function accessCredentialSecretVolumes(spec: VirtualMachineInstanceSpec): LauncherSecretVolumes {
  const rendered: LauncherSecretVolumes = { volumes: [], volumeMounts: [] };
  const secretNames = new Set([
    ...propagatedKeySecrets(spec, "noCloud"),
    ...propagatedKeySecrets(spec, "configDrive"),
  ]);
  for (const secretName of secretNames) {
    const podVolumeName = accessCredentialVolumeName(secretName);
    if (!isDnsLabel(podVolumeName)) continue;
    rendered.volumes.push({ name: podVolumeName, secret: { secretName } });
    rendered.volumeMounts.push({
      name: podVolumeName,
      mountPath: `${SECRET_SOURCE_DIR}/${podVolumeName}`,
      readOnly: true,
    });
  }
  return rendered;
}

function isDnsLabel(name: string): boolean {
  return name.length <= 63 && DNS1123_LABEL.test(name);
}
