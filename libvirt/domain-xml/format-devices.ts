// Devices → `<devices>`, in the order libvirt writes them.
import type {
  CharDeviceBase,
  Controller,
  DeviceAddress,
  Devices,
  Disk,
  Graphics,
  GraphicsListen,
  MemBalloon,
  NetworkInterface,
  Rng,
  Video,
} from "./device-types.js";
import { onOff, yesNo } from "./element-reader.js";
import {
  serializeXmlElement,
  textElement,
  type XmlElement,
  type XmlNode,
  xmlElement,
} from "./xml-element.js";

interface Identified {
  alias?: string;
  address?: DeviceAddress;
}

/** The trailing `<alias>` and `<address>` every device may have. */
function identity(device: Identified): Array<XmlElement | undefined> {
  return [
    device.alias === undefined ? undefined : xmlElement("alias", { name: device.alias }),
    device.address && xmlElement("address", { ...device.address }),
  ];
}

function bootElement(order: number | undefined): XmlElement | undefined {
  return order === undefined ? undefined : xmlElement("boot", { order });
}

/** One disk's XML, for virDomainAttachDeviceFlags (hotplug). */
export function diskToXml(disk: Disk): string {
  return serializeXmlElement(diskElement(disk));
}

function diskElement(disk: Disk): XmlElement {
  const driver = disk.driver;
  const sourceAttribute = disk.type === "block" ? "dev" : "file";
  return xmlElement("disk", { type: disk.type, device: disk.device }, [
    driver &&
      xmlElement("driver", {
        name: driver.name,
        type: driver.type,
        cache: driver.cache,
        io: driver.io,
        discard: driver.discard,
        error_policy: driver.errorPolicy,
      }),
    disk.source === undefined
      ? undefined
      : xmlElement("source", { [sourceAttribute]: disk.source, fdgroup: disk.sourceFdGroup }),
    xmlElement("target", { dev: disk.target.dev, bus: disk.target.bus, tray: disk.target.tray }),
    disk.readonly ? xmlElement("readonly") : undefined,
    disk.shareable ? xmlElement("shareable") : undefined,
    textElement("serial", disk.serial),
    bootElement(disk.bootOrder),
    ...identity(disk),
  ]);
}

function controllerElement(controller: Controller): XmlElement {
  const driver = controller.driver;
  return xmlElement(
    "controller",
    { type: controller.type, index: controller.index, model: controller.model },
    [
      driver && xmlElement("driver", { queues: driver.queues, iothread: driver.iothread }),
      ...identity(controller),
    ],
  );
}

function interfaceSource(nic: NetworkInterface): XmlElement | undefined {
  if (nic.type === "network") return xmlElement("source", { network: nic.network });
  if (nic.type === "bridge") return xmlElement("source", { bridge: nic.bridge });
  return undefined;
}

function interfaceElement(nic: NetworkInterface): XmlElement {
  return xmlElement("interface", { type: nic.type }, [
    nic.mac === undefined ? undefined : xmlElement("mac", { address: nic.mac }),
    interfaceSource(nic),
    nic.targetDev === undefined
      ? undefined
      : xmlElement("target", {
          dev: nic.targetDev,
          managed: nic.targetManaged === undefined ? undefined : nic.targetManaged ? "yes" : "no",
        }),
    nic.model === undefined ? undefined : xmlElement("model", { type: nic.model }),
    nic.backend && xmlElement("backend", { type: nic.backend.type, logFile: nic.backend.logFile }),
    nic.mtu === undefined ? undefined : xmlElement("mtu", { size: nic.mtu }),
    nic.linkState === undefined ? undefined : xmlElement("link", { state: nic.linkState }),
    bootElement(nic.bootOrder),
    ...identity(nic),
  ]);
}

/** Source and log of a serial, console or channel, followed by its target. */
function charDeviceElement(name: string, device: CharDeviceBase, target: XmlElement | undefined): XmlElement {
  const hasSource = device.sourcePath !== undefined || device.sourceMode !== undefined;
  return xmlElement(name, { type: device.type }, [
    hasSource ? xmlElement("source", { mode: device.sourceMode, path: device.sourcePath }) : undefined,
    device.log && xmlElement("log", { file: device.log.file, append: onOff(device.log.append) }),
    target,
    ...identity(device),
  ]);
}

function listenElement(listen: GraphicsListen): XmlElement {
  if (listen.type === "socket") return xmlElement("listen", { type: "socket", socket: listen.socket });
  if (listen.type === "address") return xmlElement("listen", { type: "address", address: listen.address });
  return xmlElement("listen", { type: "none" });
}

function graphicsElement(graphics: Graphics): XmlElement {
  const attributes = {
    type: graphics.type,
    port: graphics.port,
    autoport: yesNo(graphics.autoport),
    passwd: graphics.passwd,
  };
  return xmlElement("graphics", attributes, [graphics.listen && listenElement(graphics.listen)]);
}

function videoElement(video: Video): XmlElement {
  const model = video.model;
  const attributes = {
    type: model.type,
    vram: model.vram,
    heads: model.heads,
    primary: yesNo(model.primary),
  };
  return xmlElement("video", {}, [xmlElement("model", attributes), ...identity(video)]);
}

function memballoonElement(balloon: MemBalloon): XmlElement {
  const stats = balloon.statsPeriodSeconds;
  return xmlElement("memballoon", { model: balloon.model, autodeflate: onOff(balloon.autodeflate) }, [
    stats === undefined ? undefined : xmlElement("stats", { period: stats }),
    ...identity(balloon),
  ]);
}

function rngElement(rng: Rng): XmlElement {
  const backend =
    rng.backend.model === "random"
      ? xmlElement("backend", { model: "random" }, [rng.backend.device])
      : xmlElement("backend", { model: "builtin" });
  return xmlElement("rng", { model: rng.model }, [
    rng.rate && xmlElement("rate", { bytes: rng.rate.bytes, period: rng.rate.periodMs }),
    backend,
    ...identity(rng),
  ]);
}

export function formatDevices(devices: Devices): XmlElement {
  const children: Array<XmlNode | undefined> = [
    textElement("emulator", devices.emulator),
    ...(devices.disks ?? []).map(diskElement),
    ...(devices.controllers ?? []).map(controllerElement),
    ...(devices.interfaces ?? []).map(interfaceElement),
    ...(devices.serials ?? []).map((serial) => {
      const target = serial.target;
      const model = target?.model === undefined ? [] : [xmlElement("model", { name: target.model })];
      const targetElement = target && xmlElement("target", { type: target.type, port: target.port }, model);
      return charDeviceElement("serial", serial, targetElement);
    }),
    ...(devices.consoles ?? []).map((console) => {
      const target =
        console.target && xmlElement("target", { type: console.target.type, port: console.target.port });
      return charDeviceElement("console", console, target);
    }),
    ...(devices.channels ?? []).map((channel) => {
      const { type, name, state } = channel.target;
      return charDeviceElement("channel", channel, xmlElement("target", { type, name, state }));
    }),
    ...(devices.inputs ?? []).map((input) =>
      xmlElement("input", { type: input.type, bus: input.bus }, identity(input)),
    ),
    ...(devices.graphics ?? []).map(graphicsElement),
    ...(devices.videos ?? []).map(videoElement),
    devices.memballoon && memballoonElement(devices.memballoon),
    ...(devices.rngs ?? []).map(rngElement),
  ];
  return xmlElement("devices", {}, children);
}
