// The typed model of the part of libvirt's domain XML (https://libvirt.org/formatdomain.html) that we
// write and read. Names follow libvirt's, camel-cased. Optional fields map to optional elements or
// attributes: absent in the model means absent in the XML (libvirt then applies its default).
import type { Devices } from "./device-types.js";
import type { XmlElement } from "./xml-element.js";

/** The hypervisor driver. "qemu" is plain emulation (TCG), "kvm" needs working hardware virtualisation. */
export type DomainType = "qemu" | "kvm" | "test";

export interface DomainDefinition {
  type: DomainType;
  /** The running domain's id; libvirt reports it for running domains and ignores it on define. */
  id?: number;
  name: string;
  uuid?: string;
  title?: string;
  description?: string;
  /** The children of `<metadata>`: application-owned elements, each in its own XML namespace. */
  metadata?: XmlElement[];
  memory: MemorySize;
  currentMemory?: MemorySize;
  vcpu: Vcpu;
  cputune?: CpuTune;
  cpu?: Cpu;
  os: Os;
  features?: Features;
  clock?: Clock;
  onPoweroff?: LifecycleAction;
  onReboot?: LifecycleAction;
  onCrash?: CrashAction;
  devices: Devices;
  /** QEMU pass-through arguments (`<qemu:commandline>`), e.g. for slirp port forwards. */
  qemuCommandline?: QemuCommandline;
}

export type MemoryUnit =
  | "b"
  | "bytes"
  | "KB"
  | "k"
  | "KiB"
  | "MB"
  | "M"
  | "MiB"
  | "GB"
  | "G"
  | "GiB"
  | "TB"
  | "T"
  | "TiB";

/** A memory amount as libvirt writes it (`<memory unit='KiB'>262144</memory>`). */
export interface MemorySize {
  value: number;
  unit: MemoryUnit;
}

/** `<cputune>`: how the host schedules the domain. */
export interface CpuTune {
  /** The domain's CPU weight against the host's other domains (its cgroup's cpu.shares). */
  shares?: number;
}

export interface Vcpu {
  /** The maximum number of vCPUs. */
  count: number;
  /** How many of them are online at boot (default: all). */
  current?: number;
  placement?: "static" | "auto";
  cpuset?: string;
}

export type CpuMode = "custom" | "host-model" | "host-passthrough" | "maximum";

export interface Cpu {
  mode?: CpuMode;
  match?: "minimum" | "exact" | "strict";
  check?: "none" | "partial" | "full";
  model?: { name: string; fallback?: "allow" | "forbid" };
  topology?: CpuTopology;
  features?: CpuFeature[];
}

export interface CpuTopology {
  sockets: number;
  dies?: number;
  cores: number;
  threads: number;
}

export interface CpuFeature {
  name: string;
  policy: "force" | "require" | "optional" | "disable" | "forbid";
}

export type BootDevice = "hd" | "cdrom" | "network" | "fd";

export interface Os {
  type: "hvm";
  arch?: string;
  /** e.g. "q35" (libvirt expands it to the versioned type, "pc-q35-7.2"). */
  machine?: string;
  /** Automatic firmware selection (`<os firmware='efi'>`). */
  firmware?: "bios" | "efi";
  loader?: { path: string; readonly?: boolean; type?: "rom" | "pflash"; secure?: boolean };
  nvram?: { path: string; template?: string };
  /** Direct kernel boot. */
  kernel?: string;
  initrd?: string;
  cmdline?: string;
  /** Firmware boot order by device kind (`<boot dev='hd'/>`); per-device `bootOrder` is the alternative. */
  bootDevices?: BootDevice[];
  bootMenu?: { enable: boolean; timeoutMs?: number };
  /** SeaBIOS output on the serial port (`<bios useserial='yes'/>`). */
  biosUseSerial?: boolean;
}

/**
 * Hypervisor features. The presence-only ones (acpi, apic, pae) are written as empty elements when true;
 * false and absent both mean "not there", and parsing gives true or leaves them out.
 */
export interface Features {
  acpi?: boolean;
  apic?: boolean;
  pae?: boolean;
  /** `<smm state='on|off'/>`. */
  smm?: boolean;
  /** `<vmport state='on|off'/>`. */
  vmport?: boolean;
}

export interface Clock {
  offset: "utc" | "localtime" | "timezone" | "variable";
  /** For offset "timezone". */
  timezone?: string;
  /** For offset "variable": seconds, or "reset". */
  adjustment?: string;
  timers?: Timer[];
}

export interface Timer {
  name: "platform" | "pit" | "rtc" | "hpet" | "tsc" | "kvmclock" | "hypervclock" | "armvtimer";
  tickPolicy?: "delay" | "catchup" | "merge" | "discard";
  present?: boolean;
  track?: "boot" | "guest" | "wall" | "realtime";
}

export type LifecycleAction = "destroy" | "restart" | "preserve" | "rename-restart";
export type CrashAction = LifecycleAction | "coredump-destroy" | "coredump-restart";

export interface QemuCommandline {
  args?: string[];
  env?: Array<{ name: string; value?: string }>;
}
