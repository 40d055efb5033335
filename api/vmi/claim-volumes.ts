// The claims a VMI's disks live on: a persistentVolumeClaim volume names its claim, a dataVolume
// volume the claim CDI makes under the DataVolume's own name. virt-controller mounts each into the
// launcher pod (under the VMI volume's name, where KubeVirt's launcher has it), or, for a hotpluggable
// volume, into an attachment pod of its own; virt-handler finds the disk through that pod volume: one
// list, so the two agree.
import { isHotpluggableVolume } from "./hotplug-volumes.js";

/** The part of a VMI volume that says which claim it is on (frozen or not). */
interface ClaimSourceFields {
  readonly name: string;
  readonly persistentVolumeClaim?: {
    readonly claimName: string;
    readonly readOnly?: boolean | undefined;
    readonly hotpluggable?: boolean | undefined;
  };
  readonly dataVolume?: { readonly name: string; readonly hotpluggable?: boolean | undefined };
}

export interface ClaimVolume {
  /** The VMI volume's name, which is also the launcher (or attachment) pod's volume name. */
  readonly volumeName: string;
  readonly claimName: string;
  readonly readOnly: boolean;
  /** Plugged into the running domain through an attachment pod, never part of the launcher pod. */
  readonly hotpluggable: boolean;
}

/** KubeVirt's launcher keeps a claim's volume at `<dir>/<volume name>/` (its disk is `disk.img` there). */
export const CLAIM_VOLUMES_DIR = "/var/run/kubevirt-private/vmi-disks";

export function claimVolumesOf(spec: {
  readonly volumes?: readonly ClaimSourceFields[] | undefined;
}): ClaimVolume[] {
  return (spec.volumes ?? []).flatMap((volume): ClaimVolume[] => {
    const hotpluggable = isHotpluggableVolume(volume);
    if (volume.persistentVolumeClaim) {
      const { claimName, readOnly } = volume.persistentVolumeClaim;
      return [{ volumeName: volume.name, claimName, readOnly: readOnly === true, hotpluggable }];
    }
    if (volume.dataVolume)
      return [{ volumeName: volume.name, claimName: volume.dataVolume.name, readOnly: false, hotpluggable }];
    return [];
  });
}
