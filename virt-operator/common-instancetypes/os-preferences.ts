/**
 * KubeVirt's common OS preferences (kubevirt/common-instancetypes `preferences/`), as a table: each
 * preference is a base (Linux or Windows) plus the parts its OS needs (EFI, a desktop's tablet,
 * a disk bus...), and its requirements. The common set builds them from kustomize components the
 * same way; here the parts are functions and the table is the list of names.
 */
import type { VirtualMachinePreferenceSpec } from "../../api/index.js";

export interface CommonPreference {
  readonly name: string;
  readonly displayName: string;
  /** `linux`, `windows` or `legacy`: the `vm.kubevirt.io/os` annotation and the os-type label. */
  readonly osType: "linux" | "windows" | "legacy";
  /** The icon class of the OS (`icon-fedora`) and the tags the consoles filter by. */
  readonly icon: string;
  readonly tags: readonly string[];
  /** A desktop variant: its tablet input is what sets it apart from its base. */
  readonly desktop: boolean;
  readonly spec: VirtualMachinePreferenceSpec;
}

type Part = VirtualMachinePreferenceSpec;

/** Deep-merges preference parts: later parts add to (and win over) earlier ones. */
export function mergeParts(...parts: readonly Part[]): Part {
  const merged: Record<string, unknown> = {};
  for (const part of parts) mergeInto(merged, part as Record<string, unknown>);
  return merged as Part;
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isPlainObject(value) && isPlainObject(existing)) mergeInto(existing, value);
    else target[key] = isPlainObject(value) ? structuredClone(value) : value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const linux: Part = {
  annotations: { "vm.kubevirt.io/os": "linux" },
  devices: { preferredDiskBus: "virtio", preferredInterfaceModel: "virtio", preferredRng: {} },
};
const dedicatedIoThread: Part = { devices: { preferredDiskDedicatedIoThread: true } };
const efi = (secureBoot: boolean): Part => ({
  firmware: { preferredEfi: { secureBoot } },
  // Secure boot needs SMM: the common set asks for both.
  ...(secureBoot ? { features: { preferredSmm: {} } } : {}),
});
const tablet: Part = {
  devices: {
    preferredAutoattachInputDevice: true,
    preferredInputBus: "virtio",
    preferredInputType: "tablet",
  },
};
const architecture = (arch: string): Part => ({
  preferredArchitecture: arch,
  requirements: { architecture: arch },
});
const requires = (cpu: number, memory: string): Part => ({
  requirements: { cpu: { guest: cpu }, memory: { guest: memory } },
});
/** DPDK guests: multi-queue NICs and vCPUs spread over sockets, cores and threads (4 per core). */
const dpdk: Part = {
  cpu: { preferredCPUTopology: "spread", spreadOptions: { across: "SocketsCoresThreads", ratio: 4 } },
  devices: { preferredNetworkInterfaceMultiQueue: true },
};
const realtime: Part = {
  cpu: { preferredCPUTopology: "spread", spreadOptions: { across: "SocketsCoresThreads" } },
  devices: {
    preferredAutoattachGraphicsDevice: false,
    preferredAutoattachMemBalloon: false,
    preferredAutoattachSerialConsole: true,
    preferredNetworkInterfaceMultiQueue: true,
  },
};

const windows: Part = {
  annotations: { "vm.kubevirt.io/os": "windows" },
  clock: {
    preferredClockOffset: { utc: {} },
    preferredTimer: {
      hpet: { present: false },
      hyperv: {},
      pit: { tickPolicy: "delay" },
      rtc: { tickPolicy: "catchup" },
    },
  },
  cpu: { preferredCPUTopology: "sockets" },
  devices: { preferredAutoattachInputDevice: true },
  features: {
    preferredAcpi: {},
    preferredApic: {},
    preferredHyperv: {
      frequencies: {},
      ipi: {},
      reenlightenment: {},
      relaxed: {},
      reset: {},
      runtime: {},
      spinlocks: { spinlocks: 8191 },
      synic: {},
      synictimer: { direct: {} },
      tlbflush: {},
      vapic: {},
      vpindex: {},
    },
  },
  preferredTerminationGracePeriodSeconds: 3600,
};
/** Emulated devices Windows has drivers for out of the box, or virtio with the virtio-win drivers. */
const windowsEmulated = (nic: string): Part => ({
  devices: { preferredDiskBus: "sata", preferredInterfaceModel: nic },
});
const windowsVirtio: Part = {
  devices: {
    preferredDiskBus: "virtio",
    preferredInterfaceModel: "virtio",
    preferredInputBus: "virtio",
    preferredInputType: "tablet",
    preferredVideoType: "virtio",
  },
};
const persistentTpm: Part = {
  devices: { preferredTPM: { persistent: true } },
  firmware: { preferredEfi: { persistent: true } },
};
const noPciHole64: Part = { annotations: { "kubevirt.io/disablePCIHole64": "true" } };

interface Row {
  name: string;
  displayName: string;
  osType?: CommonPreference["osType"];
  icon: string;
  tags: string[];
  parts: Part[];
}

const centos = (version: string, extra: Part[], suffix = "", tags: string[] = []): Row => ({
  name: `centos.stream${version}${suffix}`,
  displayName: `CentOS Stream ${version}`,
  icon: "icon-centos",
  tags: ["linux", "centos-stream", ...tags],
  parts: [linux, dedicatedIoThread, ...extra, requires(extra.includes(dpdk) ? 8 : 1, "1.5Gi")],
});

const rhel = (version: number, label: string, extra: Part[], suffix = "", tags: string[] = []): Row => ({
  name: `rhel.${version}${suffix}`,
  displayName: `Red Hat Enterprise Linux ${label}`,
  icon: "icon-rhel",
  tags: ["linux", "rhel", ...tags],
  parts: [linux, ...extra],
});

/** RHEL 9 and 10 on amd64 boot with secure boot; their other architectures with the firmware's default. */
const rhelAmd64 = (version: number, extra: Part[] = [], suffix = "", label = "", tags: string[] = []): Row =>
  rhel(
    version,
    `${version}${label} (amd64)`,
    [dedicatedIoThread, efi(true), architecture("amd64"), requires(1, "1.5Gi"), ...extra],
    suffix,
    tags,
  );
const rhelOtherArch = (version: number, arch: string): Row =>
  rhel(
    version,
    `${version} (${arch})`,
    [dedicatedIoThread, architecture(arch), requires(1, "1.5Gi")],
    `.${arch}`,
  );
const windowsRow = (
  name: string,
  label: string,
  variant: "emulated" | "virtio",
  extra: Part[],
  nic = "e1000e",
): Row => ({
  name: variant === "virtio" ? `${name}.virtio` : name,
  displayName: `Microsoft Windows ${label}${variant === "virtio" ? " (virtio)" : ""}`,
  osType: "windows",
  icon: "icon-windows",
  tags: ["windows"],
  parts: [windows, variant === "virtio" ? windowsVirtio : windowsEmulated(nic), ...extra],
});
const bothWindowsVariants = (name: string, label: string, extra: Part[]): Row[] => [
  windowsRow(name, label, "emulated", extra),
  windowsRow(name, label, "virtio", extra),
];

const ROWS: readonly Row[] = [
  {
    name: "alpine",
    displayName: "Alpine",
    icon: "icon-alpine",
    tags: ["alpine"],
    parts: [linux, requires(1, "512Mi")],
  },
  centos("10", []),
  centos("10", [tablet], ".desktop"),
  centos("9", []),
  centos("9", [tablet], ".desktop"),
  centos("9", [dpdk], ".dpdk", ["dpdk"]),
  {
    name: "cirros",
    displayName: "Cirros",
    icon: "icon-cirros",
    tags: ["cirros"],
    parts: [linux, requires(1, "256Mi")],
  },
  {
    name: "debian",
    displayName: "Debian",
    icon: "icon-debian",
    tags: ["debian"],
    parts: [linux, efi(false), requires(1, "512Mi")],
  },
  {
    name: "fedora",
    displayName: "Fedora (amd64)",
    icon: "icon-fedora",
    tags: ["fedora"],
    parts: [linux, efi(true), architecture("amd64"), requires(1, "2Gi")],
  },
  ...["arm64", "s390x"].map(
    (arch): Row => ({
      name: `fedora.${arch}`,
      displayName: `Fedora (${arch})`,
      icon: "icon-fedora",
      tags: ["fedora"],
      parts: [linux, architecture(arch), requires(1, "2Gi")],
    }),
  ),
  {
    name: "legacy",
    displayName: "Legacy Guest",
    osType: "legacy",
    icon: "icon-other",
    tags: ["legacy"],
    parts: [
      { annotations: { "vm.kubevirt.io/os": "legacy" } },
      { devices: { preferredDiskBus: "sata", preferredInterfaceModel: "e1000" } },
    ],
  },
  { name: "linux", displayName: "Linux Guest", icon: "icon-linux", tags: ["linux"], parts: [linux] },
  {
    name: "linux.efi",
    displayName: "Linux EFI Guest",
    icon: "icon-linux",
    tags: ["linux-efi"],
    parts: [linux, efi(false)],
  },
  {
    name: "linux.virtiotransitional",
    displayName: "Linux Virtio Transitional Guest",
    icon: "icon-linux",
    tags: ["linux-virtio-transitional"],
    parts: [linux, { devices: { preferredUseVirtioTransitional: true } }],
  },
  ...(["leap", "tumbleweed"] as const).map(
    (flavour): Row => ({
      name: `opensuse.${flavour}`,
      displayName: `OpenSUSE ${flavour === "leap" ? "Leap" : "Tumbleweed"}`,
      icon: `icon-opensuse-${flavour}`,
      tags: [`opensuse.${flavour}`],
      parts: [linux, requires(1, "2Gi")],
    }),
  ),
  {
    name: "oraclelinux",
    displayName: "Oracle Linux",
    icon: "icon-oracle",
    tags: ["oraclelinux"],
    parts: [linux, efi(false), requires(2, "4Gi")],
  },
  rhelAmd64(10),
  rhelOtherArch(10, "arm64"),
  rhelOtherArch(10, "s390x"),
  rhel(7, "7", [requires(1, "1Gi")]),
  rhel(7, "7", [tablet, requires(1, "1Gi")], ".desktop"),
  rhel(8, "8", [requires(1, "1.5Gi")]),
  rhel(8, "8", [tablet, requires(1, "1.5Gi")], ".desktop"),
  rhel(8, "8", [dpdk, requires(8, "1.5Gi")], ".dpdk", ["dpdk"]),
  rhelAmd64(9),
  rhelOtherArch(9, "arm64"),
  rhelAmd64(9, [tablet], ".desktop", " Desktop"),
  rhelAmd64(9, [dpdk, requires(8, "1.5Gi")], ".dpdk", " DPDK", ["dpdk"]),
  rhelAmd64(9, [realtime, requires(4, "4Gi")], ".realtime", " Realtime", ["realtime"]),
  rhelOtherArch(9, "s390x"),
  {
    name: "sles",
    displayName: "SUSE Linux Enterprise Server",
    icon: "icon-sles",
    tags: ["sles"],
    parts: [linux, requires(1, "2Gi")],
  },
  {
    name: "ubuntu",
    displayName: "Ubuntu",
    icon: "icon-ubuntu",
    tags: ["ubuntu"],
    parts: [linux, requires(1, "2Gi")],
  },
  ...bothWindowsVariants("windows.10", "10", [efi(true), requires(1, "2Gi")]),
  ...bothWindowsVariants("windows.11", "11", [efi(true), persistentTpm, requires(2, "4Gi")]),
  ...bothWindowsVariants("windows.2k12", "Server 2012/2012 R2", [requires(1, "512Mi")]),
  ...bothWindowsVariants("windows.2k16", "Server 2016", [efi(true), requires(1, "2Gi")]),
  ...bothWindowsVariants("windows.2k19", "Server 2019", [efi(true), requires(1, "2Gi")]),
  ...bothWindowsVariants("windows.2k22", "Server 2022", [efi(true), persistentTpm, requires(1, "2Gi")]),
  ...bothWindowsVariants("windows.2k25", "Server 2025", [efi(true), persistentTpm, requires(1, "2Gi")]),
  windowsRow("windows.2k3", "Server 2003", "emulated", [noPciHole64, requires(1, "256Mi")], "rtl8139"),
  windowsRow("windows.2k8", "Server 2008/2008 R2", "emulated", [requires(1, "512Mi")], "e1000"),
  windowsRow("windows.2k8", "Server 2008/2008 R2", "virtio", [requires(1, "512Mi")]),
  ...bothWindowsVariants("windows.7", "7", [requires(1, "2Gi")]),
  windowsRow("windows.xp", "XP", "emulated", [noPciHole64, requires(1, "128Mi")]),
];

/** Every preference of the common set (before kubevirt-ts's support is applied). */
export function commonPreferences(): CommonPreference[] {
  return ROWS.map((row) => ({
    name: row.name,
    displayName: row.displayName,
    osType: row.osType ?? "linux",
    icon: row.icon,
    tags: row.tags,
    desktop: row.name.endsWith(".desktop"),
    spec: mergeParts(...row.parts),
  }));
}
