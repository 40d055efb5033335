// `<devices>` → Devices. A device whose kind the model does not cover (`<disk type='network'>`,
// `<graphics type='spice'>`, `<serial type='tcp'>`, …) is skipped like an unknown element; within a
// covered device, modelled attributes must have values the model knows.
import type {
  ChannelDevice,
  CharDeviceBase,
  ConsoleDevice,
  Controller,
  DeviceAddress,
  Devices,
  Disk,
  DiskBus,
  DiskCache,
  DiskDriver,
  Graphics,
  GraphicsListen,
  InputDevice,
  MemBalloon,
  NetworkInterface,
  Rng,
  SerialDevice,
  Video,
} from "./device-types.js";
import { compact, type ElementReader, nonEmpty } from "./element-reader.js";
import { enumValues } from "./enum-values.js";

const DISK_TYPES = enumValues<Disk["type"]>()("file", "block");
const DISK_DEVICES = enumValues<NonNullable<Disk["device"]>>()("disk", "cdrom", "lun", "floppy");
const DISK_BUSES = enumValues<DiskBus>()("virtio", "sata", "scsi", "ide", "usb", "fdc", "sd", "xen");
const DISK_CACHES = enumValues<DiskCache>()(
  "default",
  "none",
  "writethrough",
  "writeback",
  "directsync",
  "unsafe",
);
const DISK_FORMATS = enumValues<NonNullable<DiskDriver["type"]>>()("raw", "qcow2");
const DISK_IO = enumValues<NonNullable<DiskDriver["io"]>>()("native", "threads", "io_uring");
const ERROR_POLICIES = enumValues<NonNullable<DiskDriver["errorPolicy"]>>()(
  "stop",
  "report",
  "ignore",
  "enospace",
);
const CONTROLLER_TYPES = enumValues<Controller["type"]>()(
  "usb",
  "scsi",
  "sata",
  "ide",
  "pci",
  "virtio-serial",
  "fdc",
  "ccid",
  "xenbus",
  "isa",
);
const INTERFACE_TYPES = enumValues<NetworkInterface["type"]>()("user", "network", "bridge", "ethernet");
const CHAR_TYPES = enumValues<CharDeviceBase["type"]>()("pty", "file", "unix", "null");
const SERIAL_TARGETS = enumValues<NonNullable<NonNullable<SerialDevice["target"]>["type"]>>()(
  "isa-serial",
  "usb-serial",
  "pci-serial",
  "system-serial",
);
const CONSOLE_TARGETS = enumValues<NonNullable<NonNullable<ConsoleDevice["target"]>["type"]>>()(
  "serial",
  "virtio",
);
const CHANNEL_TARGETS = enumValues<ChannelDevice["target"]["type"]>()("virtio", "guestfwd");
const INPUT_TYPES = enumValues<InputDevice["type"]>()("mouse", "keyboard", "tablet", "passthrough", "evdev");
const INPUT_BUSES = enumValues<NonNullable<InputDevice["bus"]>>()("ps2", "usb", "virtio", "xen");
const VIDEO_MODELS = enumValues<Video["model"]["type"]>()(
  "vga",
  "cirrus",
  "virtio",
  "qxl",
  "bochs",
  "ramfb",
  "none",
);
const BALLOON_MODELS = enumValues<MemBalloon["model"]>()(
  "virtio",
  "virtio-transitional",
  "virtio-non-transitional",
  "xen",
  "none",
);
const RNG_MODELS = enumValues<Rng["model"]>()("virtio", "virtio-transitional", "virtio-non-transitional");

/** The kind attribute of a device, or undefined when the model does not cover that kind (device skipped). */
function coveredKind<T extends string>(reader: ElementReader, attribute: string, covered: readonly T[]) {
  const value = reader.attribute(attribute);
  return value !== undefined && (covered as readonly string[]).includes(value) ? (value as T) : undefined;
}

function identity(reader: ElementReader): { alias?: string; address?: DeviceAddress } {
  const address = reader.child("address");
  const attributes = address?.element.attributes;
  return compact({
    alias: reader.child("alias")?.attribute("name"),
    address: attributes?.type === undefined ? undefined : { ...attributes, type: attributes.type },
  });
}

function disk(reader: ElementReader): Disk | undefined {
  const type = coveredKind(reader, "type", DISK_TYPES);
  if (!type) return undefined;
  const driver = reader.child("driver");
  const target = reader.requiredChild("target");
  return compact({
    type,
    device: reader.enumAttribute("device", DISK_DEVICES),
    driver:
      driver &&
      compact({
        name: driver.enumAttribute("name", ["qemu"] as const),
        type: driver.enumAttribute("type", DISK_FORMATS),
        cache: driver.enumAttribute("cache", DISK_CACHES),
        io: driver.enumAttribute("io", DISK_IO),
        discard: driver.enumAttribute("discard", ["unmap", "ignore"] as const),
        errorPolicy: driver.enumAttribute("error_policy", ERROR_POLICIES),
      }),
    source: reader.child("source")?.attribute(type === "block" ? "dev" : "file"),
    sourceFdGroup: reader.child("source")?.attribute("fdgroup"),
    target: compact({
      dev: target.requiredAttribute("dev"),
      bus: target.enumAttribute("bus", DISK_BUSES),
      tray: target.enumAttribute("tray", ["open", "closed"] as const),
    }),
    readonly: reader.has("readonly") ? true : undefined,
    shareable: reader.has("shareable") ? true : undefined,
    serial: reader.childText("serial"),
    bootOrder: reader.child("boot")?.integerAttribute("order"),
    ...identity(reader),
  });
}

function controller(reader: ElementReader): Controller | undefined {
  const type = coveredKind(reader, "type", CONTROLLER_TYPES);
  if (!type) return undefined;
  const driver = reader.child("driver");
  return compact({
    type,
    index: reader.integerAttribute("index"),
    model: reader.attribute("model"),
    driver:
      driver &&
      compact({ queues: driver.integerAttribute("queues"), iothread: driver.integerAttribute("iothread") }),
    ...identity(reader),
  });
}

function networkInterface(reader: ElementReader): NetworkInterface | undefined {
  const type = coveredKind(reader, "type", INTERFACE_TYPES);
  if (!type) return undefined;
  const backend = reader.child("backend");
  const common = compact({
    mac: reader.child("mac")?.attribute("address"),
    model: reader.child("model")?.attribute("type"),
    targetDev: reader.child("target")?.attribute("dev"),
    targetManaged: yesNo(reader.child("target")?.attribute("managed")),
    mtu: reader.child("mtu")?.integerAttribute("size"),
    linkState: reader.child("link")?.enumAttribute("state", ["up", "down"] as const),
    bootOrder: reader.child("boot")?.integerAttribute("order"),
    backend:
      backend &&
      compact({
        type: backend.enumAttribute("type", ["default", "passt"] as const) ?? "default",
        logFile: backend.attribute("logFile"),
      }),
    ...identity(reader),
  });
  switch (type) {
    case "network":
      return { ...common, type, network: reader.requiredChild("source").requiredAttribute("network") };
    case "bridge":
      return { ...common, type, bridge: reader.requiredChild("source").requiredAttribute("bridge") };
    default:
      return { ...common, type };
  }
}

/** The host side shared by serials, consoles and channels; undefined for backends the model lacks. */
function charDevice(reader: ElementReader): CharDeviceBase | undefined {
  const type = coveredKind(reader, "type", CHAR_TYPES);
  if (!type) return undefined;
  const source = reader.child("source");
  const log = reader.child("log");
  return compact({
    type,
    sourcePath: source?.attribute("path"),
    sourceMode: source?.enumAttribute("mode", ["bind", "connect"] as const),
    log: log && compact({ file: log.requiredAttribute("file"), append: log.booleanAttribute("append") }),
    ...identity(reader),
  });
}

function serialDevice(reader: ElementReader): SerialDevice | undefined {
  const base = charDevice(reader);
  const target = reader.child("target");
  if (!base) return undefined;
  const parsedTarget =
    target &&
    compact({
      type: target.enumAttribute("type", SERIAL_TARGETS),
      port: target.integerAttribute("port"),
      model: target.child("model")?.attribute("name"),
    });
  return compact({ ...base, target: parsedTarget });
}

function consoleDevice(reader: ElementReader): ConsoleDevice | undefined {
  const base = charDevice(reader);
  const target = reader.child("target");
  if (!base) return undefined;
  const parsedTarget =
    target &&
    compact({ type: target.enumAttribute("type", CONSOLE_TARGETS), port: target.integerAttribute("port") });
  return compact({ ...base, target: parsedTarget });
}

function channel(reader: ElementReader): ChannelDevice | undefined {
  const base = charDevice(reader);
  const target = reader.child("target");
  const targetType = target && coveredKind(target, "type", CHANNEL_TARGETS);
  if (!base || !target || !targetType) return undefined;
  const state = target.enumAttribute("state", ["connected", "disconnected"] as const);
  return { ...base, target: compact({ type: targetType, name: target.attribute("name"), state }) };
}

function input(reader: ElementReader): InputDevice | undefined {
  const type = coveredKind(reader, "type", INPUT_TYPES);
  return type && compact({ type, bus: reader.enumAttribute("bus", INPUT_BUSES), ...identity(reader) });
}

function listen(graphics: ElementReader): GraphicsListen | undefined {
  const element = graphics.child("listen");
  const type = element?.attribute("type");
  if (type === "socket") return { type, socket: element?.requiredAttribute("socket") ?? "" };
  if (type === "address") return compact<GraphicsListen>({ type, address: element?.attribute("address") });
  if (type === "none") return { type };
  // The older attribute forms: <graphics socket='…'> and <graphics listen='…'>.
  const socket = graphics.attribute("socket");
  if (socket !== undefined) return { type: "socket", socket };
  const address = graphics.attribute("listen");
  return address === undefined ? undefined : { type: "address", address };
}

function graphics(reader: ElementReader): Graphics | undefined {
  if (reader.attribute("type") !== "vnc") return undefined;
  return compact({
    type: "vnc" as const,
    port: reader.integerAttribute("port"),
    autoport: reader.booleanAttribute("autoport"),
    listen: listen(reader),
    passwd: reader.attribute("passwd"),
  });
}

function video(reader: ElementReader): Video | undefined {
  const model = reader.child("model");
  const type = model && coveredKind(model, "type", VIDEO_MODELS);
  if (!model || !type) return undefined;
  const parsedModel = compact({
    type,
    vram: model.integerAttribute("vram"),
    heads: model.integerAttribute("heads"),
    primary: model.booleanAttribute("primary"),
  });
  return compact({ model: parsedModel, ...identity(reader) });
}

function memballoon(reader: ElementReader | undefined): MemBalloon | undefined {
  if (!reader) return undefined;
  return compact({
    model: reader.requiredEnumAttribute("model", BALLOON_MODELS),
    autodeflate: reader.booleanAttribute("autodeflate"),
    statsPeriodSeconds: reader.child("stats")?.integerAttribute("period"),
    ...identity(reader),
  });
}

function rng(reader: ElementReader): Rng | undefined {
  const model = coveredKind(reader, "model", RNG_MODELS);
  const backend = reader.child("backend");
  const backendModel = backend?.attribute("model");
  if (!model || !backend || (backendModel !== "random" && backendModel !== "builtin")) return undefined;
  const rate = reader.child("rate");
  return compact({
    model,
    backend:
      backendModel === "random"
        ? compact<Rng["backend"]>({ model: backendModel, device: backend.text() })
        : { model: "builtin" as const },
    rate:
      rate &&
      compact({ bytes: rate.integerAttribute("bytes") ?? 0, periodMs: rate.integerAttribute("period") }),
    ...identity(reader),
  });
}

function covered<T>(
  readers: ElementReader[],
  read: (reader: ElementReader) => T | undefined,
): T[] | undefined {
  return nonEmpty(readers.map(read).filter((device): device is T => device !== undefined));
}

export function parseDevices(reader: ElementReader | undefined): Devices {
  if (!reader) return {};
  return compact({
    emulator: reader.childText("emulator"),
    disks: covered(reader.children("disk"), disk),
    controllers: covered(reader.children("controller"), controller),
    interfaces: covered(reader.children("interface"), networkInterface),
    serials: covered(reader.children("serial"), serialDevice),
    consoles: covered(reader.children("console"), consoleDevice),
    channels: covered(reader.children("channel"), channel),
    inputs: covered(reader.children("input"), input),
    graphics: covered(reader.children("graphics"), graphics),
    videos: covered(reader.children("video"), video),
    memballoon: memballoon(reader.child("memballoon")),
    rngs: covered(reader.children("rng"), rng),
  });
}

function yesNo(value: string | undefined): boolean | undefined {
  if (value === "yes") return true;
  if (value === "no") return false;
  return undefined;
}
