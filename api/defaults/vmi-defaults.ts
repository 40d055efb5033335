import { Quantity } from "../../runtime/quantity/quantity.js";
import type { VirtualMachineInstance } from "../vmi/virtual-machine-instance.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { fillApiDefaults } from "./api-defaults.js";
import { type ClusterDefaults, KUBEVIRT_DEFAULTS } from "./cluster-defaults.js";
import { legacyFirmwareUuid } from "./firmware-uuid.js";
import { defaultPullPolicy } from "./image-pull-policy.js";

/** Seconds a VMI gets to shut down when its spec does not say (KubeVirt's DefaultGracePeriodSeconds). */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

/**
 * A VMI with KubeVirt's defaults applied: the API defaults plus what virt-api's mutating webhook
 * adds (machine type, CPU model and topology, resource requests, guest memory, image pull
 * policies, the pod network, architecture). Pure: the input is not modified. Controllers apply it
 * to what they read, so behaviour never depends on the webhook having run; the webhook will call
 * the same function.
 */
export function defaultVirtualMachineInstance(
  vmi: VirtualMachineInstance,
  cluster: ClusterDefaults = KUBEVIRT_DEFAULTS,
): VirtualMachineInstance {
  const copy = structuredClone(vmi);
  fillVirtualMachineInstanceSpecDefaults(copy.spec, cluster, copy.metadata?.name);
  return copy;
}

/** The same defaults for a bare spec (e.g. the spec a VM controller renders from its template). */
export function defaultVirtualMachineInstanceSpec(
  spec: VirtualMachineInstanceSpec,
  cluster: ClusterDefaults = KUBEVIRT_DEFAULTS,
  name?: string,
): VirtualMachineInstanceSpec {
  const copy = structuredClone(spec);
  fillVirtualMachineInstanceSpecDefaults(copy, cluster, name);
  return copy;
}

function fillVirtualMachineInstanceSpecDefaults(
  spec: VirtualMachineInstanceSpec,
  cluster: ClusterDefaults,
  name: string | undefined,
): void {
  // Before the API defaults, as KubeVirt's mutator runs it first: the added disks get a disk target.
  fillVolumeDisks(spec);
  fillApiDefaults(spec);
  spec.architecture ||= cluster.architecture;
  spec.domain.machine ??= {};
  const machine = spec.domain.machine;
  machine.type ||= cluster.machineType;
  spec.domain.cpu ??= {};
  const cpu = spec.domain.cpu;
  cpu.model ||= cluster.cpuModel;
  if (name !== undefined && spec.domain.firmware !== undefined)
    spec.domain.firmware.uuid ||= legacyFirmwareUuid(name);
  fillResourceDefaults(spec, cluster);
  fillCpuTopology(spec);
  fillPullPolicies(spec);
  fillPodNetwork(spec, cluster);
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (cluster.evictionStrategy !== undefined) spec.evictionStrategy ??= cluster.evictionStrategy;
}

/**
 * Requests copy limits; a missing memory request follows `memory.guest` (less overcommit); a
 * missing CPU request takes the cluster's `cpuRequest`, when it sets one, unless CPUs are dedicated
 * (without one, the launcher pod's request comes from `cpuAllocationRatio`). Then
 * `memory.guest` follows the memory request (plus overcommit).
 */
function fillResourceDefaults(spec: VirtualMachineInstanceSpec, cluster: ClusterDefaults): void {
  const domain = spec.domain;
  domain.resources ??= {};
  const resources = domain.resources;
  const limits = resources.limits ?? {};
  resources.requests ??= {};
  const requests = resources.requests;
  for (const name of ["cpu", "memory"]) {
    const limit = limits[name];
    if (requests[name] === undefined && limit !== undefined && !isZero(limit)) requests[name] = limit;
  }
  const overcommit = cluster.memoryOvercommitPercent;
  const guest = domain.memory?.guest;
  if (requests.memory === undefined && guest !== undefined) {
    requests.memory = overcommit === 100 ? guest : scaled(guest, 100, overcommit);
  }
  if (
    requests.cpu === undefined &&
    domain.cpu?.dedicatedCpuPlacement !== true &&
    cluster.cpuRequest !== undefined
  ) {
    requests.cpu = cluster.cpuRequest.text;
  }
  if (guest === undefined && requests.memory !== undefined) {
    domain.memory ??= {};
    domain.memory.guest = overcommit === 100 ? requests.memory : scaled(requests.memory, overcommit, 100);
  }
  if (Object.keys(requests).length === 0) delete resources.requests;
}

/** No topology: one socket per requested (or limited) CPU; a partial topology fills in 1s. */
function fillCpuTopology(spec: VirtualMachineInstanceSpec): void {
  spec.domain.cpu ??= {};
  const cpu = spec.domain.cpu;
  if (!cpu.cores && !cpu.sockets && !cpu.threads) {
    const resources = spec.domain.resources;
    const cpus = resources?.limits?.cpu ?? resources?.requests?.cpu;
    const count = cpus === undefined ? 1 : (Quantity.tryParse(cpus)?.value() ?? 1);
    cpu.sockets = Math.max(1, count);
    cpu.cores = 1;
    cpu.threads = 1;
    return;
  }
  cpu.cores ||= 1;
  cpu.sockets ||= 1;
  cpu.threads ||= 1;
}

function fillPullPolicies(spec: VirtualMachineInstanceSpec): void {
  for (const volume of spec.volumes ?? []) {
    const disk = volume.containerDisk;
    if (disk !== undefined) disk.imagePullPolicy ??= defaultPullPolicy(disk.image);
  }
  const kernel = spec.domain.firmware?.kernelBoot?.container;
  if (kernel !== undefined) kernel.imagePullPolicy ??= defaultPullPolicy(kernel.image);
}

/**
 * The pod network's interface a VMI without interfaces and networks gets (KubeVirt's
 * SetDefaultNetworkInterface): KubeVirt adds it before a preference is applied, so that the
 * preference's interface model reaches it.
 */
export function withDefaultNetworkInterface(
  spec: VirtualMachineInstanceSpec,
  cluster: ClusterDefaults,
): VirtualMachineInstanceSpec {
  const copy = structuredClone(spec);
  fillPodNetwork(copy, cluster);
  return copy;
}

/** No interfaces and no networks: attach the pod network with the cluster's default binding. */
function fillPodNetwork(spec: VirtualMachineInstanceSpec, cluster: ClusterDefaults): void {
  const devices = spec.domain.devices;
  if (devices.autoattachPodInterface === false) return;
  if ((devices.interfaces ?? []).length > 0 || (spec.networks ?? []).length > 0) return;
  devices.interfaces = [{ name: "default", [cluster.defaultNetworkInterface]: {} }];
  spec.networks = [{ name: "default", pod: {} }];
}

function isZero(value: string | number): boolean {
  return Quantity.tryParse(value)?.isZero() ?? false;
}

/** value × numerator / denominator, keeping an unparsable value as written (validation reports it). */
function scaled(value: string | number, numerator: number, denominator: number): string | number {
  return Quantity.tryParse(value)?.scaledBy(numerator, denominator).text ?? value;
}

/**
 * KubeVirt adds a plain disk for every volume that no disk or filesystem uses (SetDefaultVolumeDisk):
 * on every VMI it defaults, and when a VM's template becomes a VMI.
 */
export function withVolumeDisks(spec: VirtualMachineInstanceSpec): VirtualMachineInstanceSpec {
  const copy = structuredClone(spec);
  fillVolumeDisks(copy);
  return copy;
}

function fillVolumeDisks(spec: VirtualMachineInstanceSpec): void {
  const devices = spec.domain.devices;
  const used = new Set([
    ...(devices.disks ?? []).map((disk) => disk.name),
    ...(devices.filesystems ?? []).map((filesystem) => filesystem.name),
  ]);
  const missing = (spec.volumes ?? []).filter((volume) => !used.has(volume.name));
  if (missing.length > 0) {
    devices.disks = [...(devices.disks ?? []), ...missing.map((volume) => ({ name: volume.name, disk: {} }))];
  }
}
