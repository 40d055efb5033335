// DomainDefinition → domain XML, in the element order libvirt itself writes.

import type {
  Clock,
  Cpu,
  DomainDefinition,
  Features,
  MemorySize,
  Os,
  QemuCommandline,
  Vcpu,
} from "./domain-types.js";
import { onOff, yesNo } from "./element-reader.js";
import { formatDevices } from "./format-devices.js";
import { serializeXmlElement, textElement, type XmlElement, xmlElement } from "./xml-element.js";

export const QEMU_NAMESPACE = "http://libvirt.org/schemas/domain/qemu/1.0";

function memoryElement(name: string, size: MemorySize | undefined): XmlElement | undefined {
  return size && xmlElement(name, { unit: size.unit }, [String(size.value)]);
}

function vcpuElement(vcpu: Vcpu): XmlElement {
  const attributes = { placement: vcpu.placement, cpuset: vcpu.cpuset, current: vcpu.current };
  return xmlElement("vcpu", attributes, [String(vcpu.count)]);
}

function osElement(os: Os): XmlElement {
  const loader = os.loader;
  return xmlElement("os", { firmware: os.firmware }, [
    xmlElement("type", { arch: os.arch, machine: os.machine }, [os.type]),
    loader &&
      xmlElement(
        "loader",
        { readonly: yesNo(loader.readonly), type: loader.type, secure: yesNo(loader.secure) },
        [loader.path],
      ),
    os.nvram && xmlElement("nvram", { template: os.nvram.template }, [os.nvram.path]),
    textElement("kernel", os.kernel),
    textElement("initrd", os.initrd),
    textElement("cmdline", os.cmdline),
    ...(os.bootDevices ?? []).map((dev) => xmlElement("boot", { dev })),
    os.bootMenu &&
      xmlElement("bootmenu", { enable: yesNo(os.bootMenu.enable), timeout: os.bootMenu.timeoutMs }),
    os.biosUseSerial === undefined ? undefined : xmlElement("bios", { useserial: yesNo(os.biosUseSerial) }),
  ]);
}

function featuresElement(features: Features): XmlElement {
  const presence = (name: "acpi" | "apic" | "pae") => (features[name] ? xmlElement(name) : undefined);
  const state = (name: "smm" | "vmport") =>
    features[name] === undefined ? undefined : xmlElement(name, { state: onOff(features[name]) });
  return xmlElement("features", {}, [
    presence("acpi"),
    presence("apic"),
    presence("pae"),
    state("smm"),
    state("vmport"),
  ]);
}

function cpuElement(cpu: Cpu): XmlElement {
  const topology = cpu.topology;
  return xmlElement("cpu", { mode: cpu.mode, match: cpu.match, check: cpu.check }, [
    cpu.model && xmlElement("model", { fallback: cpu.model.fallback }, [cpu.model.name]),
    topology &&
      xmlElement("topology", {
        sockets: topology.sockets,
        dies: topology.dies,
        cores: topology.cores,
        threads: topology.threads,
      }),
    ...(cpu.features ?? []).map((feature) =>
      xmlElement("feature", { policy: feature.policy, name: feature.name }),
    ),
  ]);
}

function clockElement(clock: Clock): XmlElement {
  const attributes = { offset: clock.offset, timezone: clock.timezone, adjustment: clock.adjustment };
  return xmlElement(
    "clock",
    attributes,
    (clock.timers ?? []).map((timer) =>
      xmlElement("timer", {
        name: timer.name,
        tickpolicy: timer.tickPolicy,
        present: yesNo(timer.present),
        track: timer.track,
      }),
    ),
  );
}

function qemuCommandlineElement(commandline: QemuCommandline): XmlElement {
  return xmlElement("qemu:commandline", {}, [
    ...(commandline.args ?? []).map((value) => xmlElement("qemu:arg", { value })),
    ...(commandline.env ?? []).map((env) => xmlElement("qemu:env", { name: env.name, value: env.value })),
  ]);
}

/** The domain as an XmlElement tree (for callers that want to inspect or extend it before serialising). */
export function domainToXmlElement(domain: DomainDefinition): XmlElement {
  const rootAttributes = {
    type: domain.type,
    id: domain.id,
    "xmlns:qemu": domain.qemuCommandline ? QEMU_NAMESPACE : undefined,
  };
  return xmlElement("domain", rootAttributes, [
    textElement("name", domain.name),
    textElement("uuid", domain.uuid),
    textElement("title", domain.title),
    textElement("description", domain.description),
    domain.metadata && xmlElement("metadata", {}, domain.metadata),
    memoryElement("memory", domain.memory),
    memoryElement("currentMemory", domain.currentMemory),
    vcpuElement(domain.vcpu),
    domain.cputune &&
      xmlElement("cputune", {}, [
        domain.cputune.shares === undefined
          ? undefined
          : textElement("shares", String(domain.cputune.shares)),
      ]),
    osElement(domain.os),
    domain.features && featuresElement(domain.features),
    domain.cpu && cpuElement(domain.cpu),
    domain.clock && clockElement(domain.clock),
    textElement("on_poweroff", domain.onPoweroff),
    textElement("on_reboot", domain.onReboot),
    textElement("on_crash", domain.onCrash),
    formatDevices(domain.devices),
    domain.qemuCommandline && qemuCommandlineElement(domain.qemuCommandline),
  ]);
}

/** The domain XML for virDomainDefineXML / virDomainCreateXML. */
export function domainToXml(domain: DomainDefinition): string {
  return serializeXmlElement(domainToXmlElement(domain));
}
