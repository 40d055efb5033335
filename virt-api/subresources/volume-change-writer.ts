/**
 * Carries out an add or remove volume request with optimistic concurrency, as the lifecycle
 * writer does: read, decide (volume-changes.ts), write conditionally on the resourceVersion read;
 * a conflict means read and decide again. On a VM the request is queued in `status.volumeRequests`
 * for virt-controller (HotplugVolumes), or written into the template (DeclarativeHotplugVolumes
 * alone); on a VMI the volume and its disk are written into its spec, which virt-api's own
 * service account may change. A dry run is sent as one, so the API server checks it and
 * nothing is stored.
 */
import type { Logger } from "pino";
import {
  isConflict,
  isInvalid,
  isNotFound,
  type ObjectRef,
  type ResourceClient,
} from "../../runtime/index.js";
import type { VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import {
  badRequest,
  conflict,
  internalError,
  notFound,
  type QualifiedResource,
  relayedStatus,
  VIRTUAL_MACHINE,
  VIRTUAL_MACHINE_INSTANCE,
} from "../status/status-error.js";
import { readVm } from "./read-vm.js";
import { readVmi } from "./read-vmi.js";
import {
  checkedVolumeChange,
  queuedVolumeRequests,
  type VolumeChange,
  withVolumeChange,
} from "./volume-changes.js";

/** Where a VM's change goes: queued for virt-controller, or straight into the VM's template. */
export type VmVolumeWrite = "volumeRequests" | "template";

interface WriteOptions {
  readonly dryRun: boolean;
  readonly log: Logger;
}

/** Reads, decides and writes again after a conflict, this many times in all. */
const MAX_ATTEMPTS = 5;
const MODIFIED =
  "the object has been modified; please apply your changes to the latest version and try again";

export async function changeVmVolumes(
  vms: ResourceClient<VirtualMachine>,
  ref: Required<ObjectRef>,
  change: VolumeChange,
  options: WriteOptions & { readonly write: VmVolumeWrite },
): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const vm = await readVm(vms, ref);
    const template = vm.spec.template.spec;
    const checked = checkedVolumeChange(template?.volumes ?? [], change);
    if ("refusal" in checked) throw conflict(VIRTUAL_MACHINE, ref.name, checked.refusal);
    const precondition = { resourceVersion: vm.metadata?.resourceVersion };
    let write: () => Promise<unknown>;
    if (options.write === "volumeRequests") {
      const queued = queuedVolumeRequests(vm.status?.volumeRequests ?? [], checked.change);
      if ("refusal" in queued) throw conflict(VIRTUAL_MACHINE, ref.name, queued.refusal);
      const patch = { metadata: precondition, status: { volumeRequests: queued.requests } };
      write = () => vms.mergePatch(ref, patch, { dryRun: options.dryRun, subresource: "status" });
    } else {
      const next = withVolumeChange(
        { volumes: template?.volumes ?? [], disks: template?.domain.devices.disks ?? [] },
        checked.change,
      );
      const spec = { volumes: next.volumes, domain: { devices: { disks: next.disks } } };
      const patch = { metadata: precondition, spec: { template: { spec } } };
      write = () => vms.mergePatch(ref, patch, { dryRun: options.dryRun });
    }
    if (await written(write, VIRTUAL_MACHINE, ref.name)) {
      logChange(options, ref, change, `VM ${options.write === "template" ? "template" : "volume requests"}`);
      return;
    }
  }
  throw conflict(VIRTUAL_MACHINE, ref.name, MODIFIED);
}

/**
 * `ownedVmisToo`: whether a VMI its VM controls may be changed behind the VM's back (KubeVirt
 * allows it only while the HotplugVolumes gate is on; declarative hotplug goes through the VM).
 */
export async function changeVmiVolumes(
  vmis: ResourceClient<VirtualMachineInstance>,
  ref: Required<ObjectRef>,
  change: VolumeChange,
  options: WriteOptions & { readonly ownedVmisToo: boolean },
): Promise<void> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const vmi = await readVmi(vmis, ref);
    if (!options.ownedVmisToo && controlledByVm(vmi)) {
      throw badRequest(`VMI ${ref.namespace}/${ref.name} is owned by a VM`);
    }
    if (vmi.status?.phase !== "Running")
      throw conflict(VIRTUAL_MACHINE_INSTANCE, ref.name, "VMI is not running");
    const checked = checkedVolumeChange(vmi.spec.volumes ?? [], change);
    if ("refusal" in checked) throw conflict(VIRTUAL_MACHINE_INSTANCE, ref.name, checked.refusal);
    const next = withVolumeChange(
      { volumes: vmi.spec.volumes ?? [], disks: vmi.spec.domain.devices.disks ?? [] },
      checked.change,
    );
    const patch = {
      metadata: { resourceVersion: vmi.metadata?.resourceVersion },
      spec: { volumes: next.volumes, domain: { devices: { disks: next.disks } } },
    };
    const write = () => vmis.mergePatch(ref, patch, { dryRun: options.dryRun });
    if (await written(write, VIRTUAL_MACHINE_INSTANCE, ref.name)) {
      logChange(options, ref, change, "VMI spec");
      return;
    }
  }
  throw conflict(VIRTUAL_MACHINE_INSTANCE, ref.name, MODIFIED);
}

/** False on a conflict; the API server's (or a webhook's) refusal of the object is passed on. */
async function written(
  write: () => Promise<unknown>,
  resource: QualifiedResource,
  name: string,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConflict(error)) return false;
    if (isNotFound(error)) throw notFound(resource, name);
    if (isInvalid(error) && error.status) throw relayedStatus(error.status, 422);
    const message = error instanceof Error ? error.message : String(error);
    throw internalError(`unable to patch ${resource.resource}: ${message}`, error);
  }
}

function controlledByVm(vmi: VirtualMachineInstance): boolean {
  return (vmi.metadata?.ownerReferences ?? []).some(
    (owner) =>
      owner.controller === true && owner.kind === "VirtualMachine" && owner.apiVersion === "kubevirt.io/v1",
  );
}

function logChange(
  options: WriteOptions,
  ref: Required<ObjectRef>,
  change: VolumeChange,
  target: string,
): void {
  options.log.info(
    { namespace: ref.namespace, name: ref.name, volume: change.options.name, dryRun: options.dryRun },
    `${change.kind === "add" ? "add" : "remove"} volume: ${target} changed`,
  );
}
