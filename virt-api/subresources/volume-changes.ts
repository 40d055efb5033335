/**
 * What an add or remove volume request does, as KubeVirt's virt-api decides it (rest/volumes.go):
 * whether the volumes it would change allow it, what a VM's queue of volume requests becomes, and
 * what a spec's volumes and disks become. Pure: volume-change-writer.ts reads, asks, and writes.
 */
import {
  type AddVolumeOptions,
  type Disk,
  hotplugSourceName,
  isHotpluggableVolume,
  type RemoveVolumeOptions,
  type VirtualMachineVolumeRequest,
  type Volume,
} from "../../api/index.js";

export type VolumeChange =
  | { readonly kind: "add"; readonly options: AddVolumeOptions }
  | { readonly kind: "remove"; readonly options: RemoveVolumeOptions };

/** The part of a VMI spec a volume change touches. */
export interface VolumesAndDisks {
  readonly volumes: readonly Volume[];
  readonly disks: readonly Disk[];
}

/**
 * The change as the volumes (of the VM template, or of the VMI) allow it, or KubeVirt's refusal.
 * A remove may name the volume by its claim or DataVolume, as KubeVirt finds it: the change then
 * names the volume itself, so that what is removed is what was found.
 */
export function checkedVolumeChange(
  volumes: readonly Volume[],
  change: VolumeChange,
): { change: VolumeChange } | { refusal: string } {
  if (change.kind === "add") {
    const { name, volumeSource } = change.options;
    const source = hotplugSourceName(volumeSource);
    for (const volume of volumes) {
      if (volume.name === name) {
        return { refusal: `Unable to add volume [${name}] because volume with that name already exists` };
      }
      if (sourceNameOf(volume) === source) {
        return { refusal: `Unable to add volume source [${source}] because it already exists` };
      }
    }
    return { change };
  }
  const { name } = change.options;
  const volume =
    volumes.find((candidate) => candidate.name === name) ??
    volumes.find((candidate) => sourceNameOf(candidate) === name);
  if (!volume) return { refusal: `Unable to remove volume [${name}] because it does not exist` };
  if (!isHotpluggableVolume(volume)) {
    return { refusal: `Unable to remove volume [${volume.name}] because it is not hotpluggable` };
  }
  return { change: { kind: "remove", options: { ...change.options, name: volume.name } } };
}

/**
 * The VM's queue with the change appended, or a refusal: one add per name, one remove per name,
 * no add while a remove of the same name is pending; a remove replaces a pending add of the name.
 */
export function queuedVolumeRequests(
  pending: readonly VirtualMachineVolumeRequest[],
  change: VolumeChange,
): { requests: VirtualMachineVolumeRequest[] } | { refusal: string } {
  const name = change.options.name;
  if (change.kind === "add") {
    for (const request of pending) {
      if (request.addVolumeOptions?.name === name) {
        return { refusal: `add volume request for volume [${name}] already exists` };
      }
      if (request.removeVolumeOptions?.name === name) {
        return {
          refusal: `unable to add volume since a remove volume request for volume [${name}] already exists and is still being processed`,
        };
      }
    }
    return { requests: [...pending, { addVolumeOptions: change.options }] };
  }
  const kept: VirtualMachineVolumeRequest[] = [];
  for (const request of pending) {
    if (request.addVolumeOptions?.name === name) continue;
    if (request.removeVolumeOptions?.name === name) {
      return {
        refusal: `a remove volume request for volume [${name}] already exists and is still being processed`,
      };
    }
    kept.push(request);
  }
  return { requests: [...kept, { removeVolumeOptions: change.options }] };
}

/** The volumes and disks once the change is applied (KubeVirt's ApplyVolumeRequestOnVMISpec). */
export function withVolumeChange(current: VolumesAndDisks, change: VolumeChange): VolumesAndDisks {
  const { name } = change.options;
  if (change.kind === "remove") {
    return {
      volumes: current.volumes.filter((volume) => volume.name !== name),
      disks: current.disks.filter((disk) => disk.name !== name),
    };
  }
  if (current.volumes.some((volume) => volume.name === name)) return current;
  const volume: Volume = { name, ...change.options.volumeSource };
  return {
    volumes: [...current.volumes, volume],
    disks: [...current.disks, { ...change.options.disk, name }],
  };
}

function sourceNameOf(volume: Volume): string | undefined {
  return volume.dataVolume?.name ?? volume.persistentVolumeClaim?.claimName;
}
