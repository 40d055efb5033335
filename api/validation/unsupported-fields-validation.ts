import type { Disk } from "../vmi/disks.js";
import type { Interface } from "../vmi/interfaces.js";
import type { Network } from "../vmi/networks.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import type { Volume, VolumeSourceName } from "../vmi/volumes.js";
import { type Cause, invalid } from "./cause.js";
import { child, index } from "./field-path.js";

/**
 * Fields the schema accepts, so that KubeVirt's manifests keep their shape, but that kubevirt-ts
 * cannot act on yet. Accepting them would make a VM that looks configured and is not (no NUMA
 * pinning, no watchdog, no GPU), so admission refuses them with their path: "<field> is not
 * supported yet". Only a value that asks for something is refused: `false`, an empty list, `None`
 * and what KubeVirt's defaults write stay accepted. api/README.md lists what is honoured.
 */
export function validateSupportedFields(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  return [
    ...refusedOf(field, SPEC_FIELDS, spec),
    ...listed(child(field, "domain", "devices", "disks"), spec.domain.devices.disks, DISK_FIELDS),
    ...listed(
      child(field, "domain", "devices", "interfaces"),
      spec.domain.devices.interfaces,
      INTERFACE_FIELDS,
    ),
    ...listed(child(field, "networks"), spec.networks, NETWORK_FIELDS),
    ...listed(child(field, "volumes"), spec.volumes, VOLUME_FIELDS),
  ];
}

/** A field (its path under the object checked) and whether the object asks for it; `why` is appended. */
interface Unsupported<T> {
  readonly path: readonly string[];
  readonly asks: (value: T) => boolean;
  readonly why?: string;
}

function unsupportedYet(path: string, why?: string): Cause {
  return invalid(path, `${path} is not supported yet${why === undefined ? "" : ` (${why})`}`);
}

function refusedOf<T>(field: string, checks: readonly Unsupported<T>[], value: T): Cause[] {
  return checks
    .filter((check) => check.asks(value))
    .map((check) => unsupportedYet(child(field, ...check.path), check.why));
}

function listed<T>(
  field: string,
  items: readonly T[] | undefined,
  checks: readonly Unsupported<T>[],
): Cause[] {
  return (items ?? []).flatMap((item, position) => refusedOf(index(field, position), checks, item));
}

const present = (value: unknown): boolean => value !== undefined && value !== null;
const nonEmpty = (items: readonly unknown[] | undefined): boolean => (items ?? []).length > 0;
const text = (value: string | undefined): boolean => value !== undefined && value !== "";

type Spec = VirtualMachineInstanceSpec;

const SPEC_FIELDS: readonly Unsupported<Spec>[] = [
  {
    path: ["resourceClaims"],
    asks: (s) => nonEmpty(s.resourceClaims),
    why: "no dynamic resource allocation",
  },
  { path: ["utilityVolumes"], asks: (s) => nonEmpty(s.utilityVolumes) },
  { path: ["serviceAccountName"], asks: (s) => text(s.serviceAccountName) },
  {
    path: ["evictionStrategy"],
    asks: (s) => s.evictionStrategy !== undefined && s.evictionStrategy !== "None",
    why: "there is no live migration: an evicted VMI stops, as with None",
  },
  {
    path: ["domain", "resources", "overcommitGuestOverhead"],
    asks: (s) => s.domain.resources?.overcommitGuestOverhead === true,
  },
  {
    path: ["domain", "cpu", "dedicatedCpuPlacement"],
    asks: (s) => s.domain.cpu?.dedicatedCpuPlacement === true,
  },
  {
    path: ["domain", "cpu", "isolateEmulatorThread"],
    asks: (s) => s.domain.cpu?.isolateEmulatorThread === true,
  },
  { path: ["domain", "cpu", "numa"], asks: (s) => present(s.domain.cpu?.numa) },
  { path: ["domain", "cpu", "realtime"], asks: (s) => present(s.domain.cpu?.realtime) },
  {
    path: ["domain", "cpu", "maxSockets"],
    asks: (s) => (s.domain.cpu?.maxSockets ?? 0) > 0,
    why: "no CPU hotplug",
  },
  {
    path: ["domain", "memory", "maxGuest"],
    asks: (s) => present(s.domain.memory?.maxGuest),
    why: "no memory hotplug",
  },
  { path: ["domain", "memory", "hugepages"], asks: (s) => present(s.domain.memory?.hugepages) },
  { path: ["domain", "firmware", "acpi"], asks: (s) => present(s.domain.firmware?.acpi) },
  {
    path: ["domain", "firmware", "bootloader", "efi", "persistent"],
    asks: (s) => s.domain.firmware?.bootloader?.efi?.persistent === true,
  },
  { path: ["domain", "features", "hyperv"], asks: (s) => present(s.domain.features?.hyperv) },
  {
    path: ["domain", "features", "hypervPassthrough"],
    asks: (s) =>
      present(s.domain.features?.hypervPassthrough) &&
      s.domain.features?.hypervPassthrough?.enabled !== false,
  },
  { path: ["domain", "features", "kvm", "hidden"], asks: (s) => s.domain.features?.kvm?.hidden === true },
  { path: ["domain", "features", "pvspinlock"], asks: (s) => present(s.domain.features?.pvspinlock) },
  {
    path: ["domain", "features", "apic", "endOfInterrupt"],
    asks: (s) => s.domain.features?.apic?.endOfInterrupt === true,
  },
  { path: ["domain", "ioThreadsPolicy"], asks: (s) => text(s.domain.ioThreadsPolicy) },
  { path: ["domain", "ioThreads"], asks: (s) => present(s.domain.ioThreads) },
  { path: ["domain", "chassis"], asks: (s) => present(s.domain.chassis) },
  { path: ["domain", "launchSecurity"], asks: (s) => present(s.domain.launchSecurity), why: "no SEV or TDX" },
  ...deviceFields(),
];

function deviceFields(): Unsupported<Spec>[] {
  const at = (name: string) => ["domain", "devices", name];
  const flag = (
    name:
      | "useVirtioTransitional"
      | "disableHotplug"
      | "blockMultiQueue"
      | "networkInterfaceMultiqueue"
      | "autoattachVSOCK",
  ): Unsupported<Spec> => ({
    path: at(name),
    asks: (s) => s.domain.devices[name] === true,
  });
  return [
    { path: at("watchdog"), asks: (s) => present(s.domain.devices.watchdog) },
    { path: at("sound"), asks: (s) => present(s.domain.devices.sound) },
    {
      path: at("tpm"),
      asks: (s) => present(s.domain.devices.tpm) && s.domain.devices.tpm?.enabled !== false,
      why: "no swtpm",
    },
    { path: at("gpus"), asks: (s) => nonEmpty(s.domain.devices.gpus) },
    { path: at("hostDevices"), asks: (s) => nonEmpty(s.domain.devices.hostDevices) },
    { path: at("filesystems"), asks: (s) => nonEmpty(s.domain.devices.filesystems), why: "no virtiofs" },
    { path: at("panicDevices"), asks: (s) => nonEmpty(s.domain.devices.panicDevices) },
    { path: at("downwardMetrics"), asks: (s) => present(s.domain.devices.downwardMetrics) },
    { path: at("clientPassthrough"), asks: (s) => present(s.domain.devices.clientPassthrough) },
    flag("useVirtioTransitional"),
    flag("disableHotplug"),
    flag("blockMultiQueue"),
    flag("networkInterfaceMultiqueue"),
    flag("autoattachVSOCK"),
  ];
}

const DISK_FIELDS: readonly Unsupported<Disk>[] = [
  { path: ["lun"], asks: (disk) => present(disk.lun), why: "a lun needs a block volume" },
  { path: ["dedicatedIOThread"], asks: (disk) => disk.dedicatedIOThread === true },
  { path: ["blockSize"], asks: (disk) => present(disk.blockSize) },
  { path: ["tag"], asks: (disk) => text(disk.tag) },
  { path: ["disk", "pciAddress"], asks: (disk) => text(disk.disk?.pciAddress) },
  { path: ["changedBlockTracking"], asks: (disk) => disk.changedBlockTracking === true },
];

/** The binding plugin virt-handler implements itself (virt-handler/converter/pod-network.ts). */
const PASST_PLUGIN = "passt";

const INTERFACE_FIELDS: readonly Unsupported<Interface>[] = [
  { path: ["sriov"], asks: (iface) => present(iface.sriov) },
  {
    path: ["binding", "name"],
    asks: (iface) => iface.binding !== undefined && iface.binding.name !== PASST_PLUGIN,
    why: `the only binding plugin is ${PASST_PLUGIN}`,
  },
  {
    path: ["state"],
    asks: (iface) =>
      iface.state === "down" && (iface.passtBinding !== undefined || iface.binding?.name === PASST_PLUGIN),
    why: "a passt interface cannot start with its link down",
  },
  { path: ["pciAddress"], asks: (iface) => text(iface.pciAddress) },
  { path: ["acpiIndex"], asks: (iface) => (iface.acpiIndex ?? 0) > 0 },
  { path: ["tag"], asks: (iface) => text(iface.tag) },
];

const NETWORK_FIELDS: readonly Unsupported<Network>[] = [
  { path: ["multus"], asks: (network) => present(network.multus), why: "only the pod network is" },
  {
    path: ["pod", "vmIPv6NetworkCIDR"],
    asks: (network) => text(network.pod?.vmIPv6NetworkCIDR),
    why: "no IPv6",
  },
];

/** Volume sources virt-handler cannot serve (virt-handler/storage/volume-files.ts refuses them too). */
const UNSERVED_SOURCES: readonly VolumeSourceName[] = [
  "ephemeral",
  "configMap",
  "secret",
  "serviceAccount",
  "downwardAPI",
  "downwardMetrics",
  "sysprep",
  "memoryDump",
];

const VOLUME_FIELDS: readonly Unsupported<Volume>[] = UNSERVED_SOURCES.map((source) => ({
  path: [source],
  asks: (volume: Volume) => present(volume[source]),
}));
