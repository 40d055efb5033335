import type { Disk, VirtualMachineVolumeRequest, Volume } from "../../api/index.js";
import { type Frozen, mutableCopy } from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";

/**
 * `status.volumeRequests` (virt-api queues them for `virtctl addvolume|removevolume` on a VM):
 * each adds a hotpluggable disk and volume to the VM's template, or removes one, and the same to
 * its running VMI (KubeVirt's handleVolumeRequests, ApplyVolumeRequestOnVMISpec). Level-based:
 * a request is applied where it is not reflected yet, and cleared once the template (and a live
 * VMI) reflect it. Of several requests for one volume only the last counts: the others are spent.
 */
export type VolumeRequest = Frozen<VirtualMachineVolumeRequest>;

/** The part of a VMI spec that volume requests change (the VM's template spec or the VMI's spec). */
interface VolumesAndDisks {
  readonly volumes?: readonly Frozen<Volume>[] | undefined;
  readonly domain: { readonly devices: { readonly disks?: readonly Frozen<Disk>[] | undefined } };
}

export interface VolumeChange {
  volumes: Volume[];
  disks: Disk[];
}

export function volumeRequestsOf(vm: Frozen<VirtualMachine>): readonly VolumeRequest[] {
  return vm.status?.volumeRequests ?? [];
}

/**
 * The requests that still count: the last one per volume; no dry run (virt-api answered those),
 * and no add of a source other than a claim or DataVolume (virt-api admits no other).
 */
function effective(requests: readonly VolumeRequest[]): VolumeRequest[] {
  const last = new Map<string, VolumeRequest>();
  for (const request of requests) {
    const options = request.addVolumeOptions ?? request.removeVolumeOptions;
    if (!options || (options.dryRun?.length ?? 0) > 0) continue;
    const source = request.addVolumeOptions?.volumeSource;
    if (source && !source.persistentVolumeClaim && !source.dataVolume) continue;
    last.delete(options.name);
    last.set(options.name, request);
  }
  return [...last.values()];
}

function nameOf(request: VolumeRequest): string {
  return request.addVolumeOptions?.name ?? request.removeVolumeOptions?.name ?? "";
}

function reflects(spec: VolumesAndDisks, request: VolumeRequest): boolean {
  const name = nameOf(request);
  const hasVolume = (spec.volumes ?? []).some((volume) => volume.name === name);
  const hasDisk = (spec.domain.devices.disks ?? []).some((disk) => disk.name === name);
  return request.addVolumeOptions ? hasVolume && hasDisk : !hasVolume && !hasDisk;
}

/**
 * The volumes and disks `spec` should have after the requests, or undefined when it has them
 * already. Added ones carry `hotpluggable: true`; an existing volume or disk of that name is kept
 * as it is (KubeVirt's "already added").
 */
export function applyVolumeRequests(
  spec: VolumesAndDisks,
  requests: readonly VolumeRequest[],
): VolumeChange | undefined {
  const pending = effective(requests).filter((request) => !reflects(spec, request));
  if (pending.length === 0) return undefined;
  let volumes = (spec.volumes ?? []).map((volume) => mutableCopy<Volume>(volume));
  let disks = (spec.domain.devices.disks ?? []).map((disk) => mutableCopy<Disk>(disk));
  for (const request of pending) {
    const name = nameOf(request);
    const add = request.addVolumeOptions;
    if (!add) {
      volumes = volumes.filter((volume) => volume.name !== name);
      disks = disks.filter((disk) => disk.name !== name);
      continue;
    }
    if (!volumes.some((volume) => volume.name === name)) volumes.push(hotpluggableVolume(add));
    if (!disks.some((disk) => disk.name === name)) disks.push({ ...mutableCopy<Disk>(add.disk), name });
  }
  return { volumes, disks };
}

/** The request's claim or DataVolume (effective() let no other through), marked hotpluggable. */
function hotpluggableVolume(add: NonNullable<VolumeRequest["addVolumeOptions"]>): Volume {
  const { persistentVolumeClaim, dataVolume } = add.volumeSource;
  if (persistentVolumeClaim)
    return {
      name: add.name,
      persistentVolumeClaim: { ...mutableCopy(persistentVolumeClaim), hotpluggable: true },
    };
  return {
    name: add.name,
    dataVolume: { ...mutableCopy(dataVolume), name: dataVolume?.name ?? "", hotpluggable: true },
  };
}

/**
 * The requests left once done: dropped when superseded or a dry run, or when the template and
 * (given one) the live VMI's spec reflect them.
 */
export function remainingVolumeRequests<R extends VolumeRequest>(
  requests: readonly R[],
  template: VolumesAndDisks,
  liveVmiSpec: VolumesAndDisks | undefined,
): R[] {
  const counting = new Set(effective(requests));
  return requests.filter(
    (request) =>
      counting.has(request) &&
      !(reflects(template, request) && (liveVmiSpec === undefined || reflects(liveVmiSpec, request))),
  );
}
