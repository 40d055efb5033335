// The launcher pod's volumes for the claims a VMI's disks live on (KubeVirt's rendervolumes.go,
// handlePersistentVolumeClaim): each becomes a persistentVolumeClaim volume of the pod, under the VMI
// volume's name, mounted in the compute container at /var/run/kubevirt-private/vmi-disks/<volume>.
// The pod is the claim's consumer: the scheduler places it where the claim can be (WaitForFirstConsumer
// binds the claim there), the kubelet mounts it, and virt-handler finds the disk in that mount.
// Hotpluggable volumes are left out, as KubeVirt leaves them out: each gets an attachment pod of its
// own once the VM runs (attachment-pod.ts), so it can come and go while the launcher pod stays.
import { join } from "node:path/posix";
import { CLAIM_VOLUMES_DIR, claimVolumesOf, type VirtualMachineInstanceSpec } from "../../api/index.js";
import type { Pod } from "../kinds.js";

type PodSpec = NonNullable<Pod["spec"]>;
type PodVolume = NonNullable<PodSpec["volumes"]>[number];
type VolumeMount = NonNullable<PodSpec["containers"][number]["volumeMounts"]>[number];

export interface LauncherClaimVolumes {
  volumes: PodVolume[];
  /** Mounts of the `compute` container. */
  volumeMounts: VolumeMount[];
}

export function claimPodVolumes(spec: VirtualMachineInstanceSpec): LauncherClaimVolumes {
  const claims = claimVolumesOf(spec).filter((claim) => !claim.hotpluggable);
  return {
    volumes: claims.map(({ volumeName, claimName, readOnly }) => ({
      name: volumeName,
      persistentVolumeClaim: { claimName, ...(readOnly ? { readOnly: true } : {}) },
    })),
    volumeMounts: claims.map(({ volumeName, readOnly }) => ({
      name: volumeName,
      mountPath: join(CLAIM_VOLUMES_DIR, volumeName),
      ...(readOnly ? { readOnly: true } : {}),
    })),
  };
}
