// The `<devices>` part of the domain model. Every device may carry an `alias` (libvirt's own, or a user
// alias "ua-…" that survives define/start, useful to map devices back to their origin) and an `address`
// (where libvirt placed it), both kept when read back.

export interface Devices {
  /** The QEMU binary; libvirt fills it in. */
  emulator?: string;
  disks?: Disk[];
  controllers?: Controller[];
  interfaces?: NetworkInterface[];
  serials?: SerialDevice[];
  consoles?: ConsoleDevice[];
  channels?: ChannelDevice[];
  inputs?: InputDevice[];
  graphics?: Graphics[];
  videos?: Video[];
  /** libvirt adds a virtio balloon unless told `model: "none"`. */
  memballoon?: MemBalloon;
  rngs?: Rng[];
}

/** A device's address as libvirt writes it: `type` plus type-specific attributes (bus, slot, unit, …). */
export interface DeviceAddress {
  type: string;
  [attribute: string]: string;
}

interface DeviceIdentity {
  alias?: string;
  address?: DeviceAddress;
}

export type DiskBus = "virtio" | "sata" | "scsi" | "ide" | "usb" | "fdc" | "sd" | "xen";
export type DiskCache = "default" | "none" | "writethrough" | "writeback" | "directsync" | "unsafe";

export interface DiskDriver {
  name?: "qemu";
  /** The image format. */
  type?: "raw" | "qcow2";
  cache?: DiskCache;
  io?: "native" | "threads" | "io_uring";
  discard?: "unmap" | "ignore";
  errorPolicy?: "stop" | "report" | "ignore" | "enospace";
}

export interface Disk extends DeviceIdentity {
  /** Where the data is: a file, or a host block device. */
  type: "file" | "block";
  device?: "disk" | "cdrom" | "lun" | "floppy";
  driver?: DiskDriver;
  /** The file (type "file") or the block device (type "block"); a cdrom may have none (empty tray). */
  source?: string;
  /**
   * The files come from descriptors associated with the domain under this name (Domain.associateFds):
   * QEMU gets them as they were opened, and `source` is only what libvirt shows.
   */
  sourceFdGroup?: string;
  target: { dev: string; bus?: DiskBus; tray?: "open" | "closed" };
  readonly?: boolean;
  shareable?: boolean;
  /** The serial number the guest sees. */
  serial?: string;
  /** Per-device boot order (1 first); not combinable with `os.bootDevices`. */
  bootOrder?: number;
}

export interface Controller extends DeviceIdentity {
  type: "usb" | "scsi" | "sata" | "ide" | "pci" | "virtio-serial" | "fdc" | "ccid" | "xenbus" | "isa";
  index?: number;
  /** e.g. "virtio-scsi", "pcie-root", "pcie-root-port", "qemu-xhci", "none". */
  model?: string;
  driver?: { queues?: number; iothread?: number };
}

interface InterfaceCommon extends DeviceIdentity {
  mac?: string;
  /** The NIC model: "virtio", "e1000", "e1000e", "rtl8139", … */
  model?: string;
  /** The host-side device (tap) name. */
  targetDev?: string;
  /**
   * false: the tap `targetDev` exists already and libvirt only opens it (type "ethernet",
   * `managed="no"`); it neither creates, configures nor removes it.
   */
  targetManaged?: boolean;
  mtu?: number;
  linkState?: "up" | "down";
  bootOrder?: number;
  /** For type "user": QEMU's built-in slirp ("default") or passt. */
  backend?: { type: "default" | "passt"; logFile?: string };
}

/** A NIC; the type says what it connects to on the host. */
export type NetworkInterface =
  | (InterfaceCommon & { type: "user" })
  | (InterfaceCommon & { type: "network"; network: string })
  | (InterfaceCommon & { type: "bridge"; bridge: string })
  | (InterfaceCommon & { type: "ethernet" });

/** How a character device is backed on the host. */
export interface CharDeviceBase extends DeviceIdentity {
  type: "pty" | "file" | "unix" | "null";
  /** pty: the pty libvirt allocated (set while running); file: the file; unix: the socket. */
  sourcePath?: string;
  /** For "unix": whether QEMU listens ("bind") or connects. */
  sourceMode?: "bind" | "connect";
  /** Also copy everything the guest writes to this file (kept with no client attached). */
  log?: { file: string; append?: boolean };
}

export interface SerialDevice extends CharDeviceBase {
  target?: {
    type?: "isa-serial" | "usb-serial" | "pci-serial" | "system-serial";
    port?: number;
    model?: string;
  };
}

export interface ConsoleDevice extends CharDeviceBase {
  target?: { type?: "serial" | "virtio"; port?: number };
}

export interface ChannelDevice extends CharDeviceBase {
  target: { type: "virtio" | "guestfwd"; name?: string; state?: "connected" | "disconnected" };
}

export interface InputDevice extends DeviceIdentity {
  type: "mouse" | "keyboard" | "tablet" | "passthrough" | "evdev";
  bus?: "ps2" | "usb" | "virtio" | "xen";
}

/** Where a VNC server listens. */
export type GraphicsListen =
  | { type: "socket"; socket: string }
  | { type: "address"; address?: string }
  | { type: "none" };

export interface Graphics {
  type: "vnc";
  /** TCP port, or -1 with `autoport`. */
  port?: number;
  autoport?: boolean;
  listen?: GraphicsListen;
  passwd?: string;
}

export interface Video extends DeviceIdentity {
  model: {
    type: "vga" | "cirrus" | "virtio" | "qxl" | "bochs" | "ramfb" | "none";
    vram?: number;
    heads?: number;
    primary?: boolean;
  };
}

export interface MemBalloon extends DeviceIdentity {
  model: "virtio" | "virtio-transitional" | "virtio-non-transitional" | "xen" | "none";
  autodeflate?: boolean;
  /** Guest memory statistics collection period. */
  statsPeriodSeconds?: number;
}

export interface Rng extends DeviceIdentity {
  model: "virtio" | "virtio-transitional" | "virtio-non-transitional";
  /** "random" reads a host device (libvirt's default: /dev/urandom). */
  backend: { model: "random"; device?: string } | { model: "builtin" };
  rate?: { bytes: number; periodMs?: number };
}
