// Domain XML → DomainDefinition. Elements and attributes the model does not cover are ignored (see
// README.md); values of modelled attributes outside the model's unions are errors that name their path.
import type {
  Clock,
  Cpu,
  CpuFeature,
  CrashAction,
  DomainDefinition,
  DomainType,
  Features,
  LifecycleAction,
  MemorySize,
  MemoryUnit,
  Os,
  QemuCommandline,
  Timer,
  Vcpu,
} from "./domain-types.js";
import { compact, ElementReader, nonEmpty, parseEnum, parseInteger } from "./element-reader.js";
import { enumValues } from "./enum-values.js";
import { QEMU_NAMESPACE } from "./format-domain.js";
import { parseDevices } from "./parse-devices.js";
import {
  DomainXmlError,
  elementNamespace,
  localName,
  parseXmlDocument,
  type XmlElement,
} from "./xml-element.js";

const DOMAIN_TYPES = enumValues<DomainType>()("qemu", "kvm", "test");
const MEMORY_UNITS = enumValues<MemoryUnit>()(
  "b",
  "bytes",
  "KB",
  "k",
  "KiB",
  "MB",
  "M",
  "MiB",
  "GB",
  "G",
  "GiB",
  "TB",
  "T",
  "TiB",
);
const LIFECYCLE_ACTIONS = enumValues<LifecycleAction>()("destroy", "restart", "preserve", "rename-restart");
const CRASH_ACTIONS = enumValues<CrashAction>()(
  "destroy",
  "restart",
  "preserve",
  "rename-restart",
  "coredump-destroy",
  "coredump-restart",
);
const CPU_MODES = enumValues<NonNullable<Cpu["mode"]>>()(
  "custom",
  "host-model",
  "host-passthrough",
  "maximum",
);
const CPU_MATCHES = enumValues<NonNullable<Cpu["match"]>>()("minimum", "exact", "strict");
const CPU_CHECKS = enumValues<NonNullable<Cpu["check"]>>()("none", "partial", "full");
const CPU_FALLBACKS = enumValues<"allow" | "forbid">()("allow", "forbid");
const FEATURE_POLICIES = enumValues<CpuFeature["policy"]>()(
  "force",
  "require",
  "optional",
  "disable",
  "forbid",
);
const BOOT_DEVICES = enumValues<NonNullable<Os["bootDevices"]>[number]>()("hd", "cdrom", "network", "fd");
const CLOCK_OFFSETS = enumValues<Clock["offset"]>()("utc", "localtime", "timezone", "variable");
const TIMER_NAMES = enumValues<Timer["name"]>()(
  "platform",
  "pit",
  "rtc",
  "hpet",
  "tsc",
  "kvmclock",
  "hypervclock",
  "armvtimer",
);
const TICK_POLICIES = enumValues<NonNullable<Timer["tickPolicy"]>>()("delay", "catchup", "merge", "discard");
const TIMER_TRACKS = enumValues<NonNullable<Timer["track"]>>()("boot", "guest", "wall", "realtime");

function memorySize(reader: ElementReader): MemorySize {
  const value = parseInteger(reader.requiredText().trim(), reader.path) ?? 0;
  // libvirt's default unit is KiB.
  return { value, unit: reader.enumAttribute("unit", MEMORY_UNITS) ?? "KiB" };
}

function vcpu(reader: ElementReader | undefined): Vcpu {
  if (!reader) return { count: 1 }; // libvirt's default
  return compact({
    count: parseInteger(reader.requiredText().trim(), reader.path) ?? 1,
    current: reader.integerAttribute("current"),
    placement: reader.enumAttribute("placement", ["static", "auto"] as const),
    cpuset: reader.attribute("cpuset"),
  });
}

function cpu(reader: ElementReader): Cpu {
  const model = reader.child("model");
  const topology = reader.child("topology");
  return compact({
    mode: reader.enumAttribute("mode", CPU_MODES),
    match: reader.enumAttribute("match", CPU_MATCHES),
    check: reader.enumAttribute("check", CPU_CHECKS),
    model:
      model &&
      compact({ name: model.requiredText(), fallback: model.enumAttribute("fallback", CPU_FALLBACKS) }),
    topology:
      topology &&
      compact({
        sockets: topology.integerAttribute("sockets") ?? 1,
        dies: topology.integerAttribute("dies"),
        cores: topology.integerAttribute("cores") ?? 1,
        threads: topology.integerAttribute("threads") ?? 1,
      }),
    features: nonEmpty(
      reader.children("feature").map((feature) => ({
        name: feature.requiredAttribute("name"),
        policy: feature.enumAttribute("policy", FEATURE_POLICIES) ?? "require",
      })),
    ),
  });
}

function os(reader: ElementReader): Os {
  const type = reader.requiredChild("type");
  const loader = reader.child("loader");
  const nvram = reader.child("nvram");
  const bootMenu = reader.child("bootmenu");
  return compact({
    type: parseEnum(type.requiredText(), ["hvm"] as const, type.path) ?? "hvm",
    arch: type.attribute("arch"),
    machine: type.attribute("machine"),
    firmware: reader.enumAttribute("firmware", ["bios", "efi"] as const),
    loader:
      loader &&
      compact({
        path: loader.requiredText(),
        readonly: loader.booleanAttribute("readonly"),
        type: loader.enumAttribute("type", ["rom", "pflash"] as const),
        secure: loader.booleanAttribute("secure"),
      }),
    nvram: nvram && compact({ path: nvram.requiredText(), template: nvram.attribute("template") }),
    kernel: reader.childText("kernel"),
    initrd: reader.childText("initrd"),
    cmdline: reader.childText("cmdline"),
    bootDevices: nonEmpty(
      reader.children("boot").map((boot) => boot.requiredEnumAttribute("dev", BOOT_DEVICES)),
    ),
    bootMenu:
      bootMenu &&
      compact({
        enable: bootMenu.booleanAttribute("enable") ?? false,
        timeoutMs: bootMenu.integerAttribute("timeout"),
      }),
    biosUseSerial: reader.child("bios")?.booleanAttribute("useserial"),
  });
}

function features(reader: ElementReader): Features {
  const presence = (name: string) => (reader.has(name) ? true : undefined);
  return compact({
    acpi: presence("acpi"),
    apic: presence("apic"),
    pae: presence("pae"),
    smm: reader.child("smm") && (reader.child("smm")?.booleanAttribute("state") ?? true),
    vmport: reader.child("vmport")?.booleanAttribute("state"),
  });
}

function clock(reader: ElementReader): Clock {
  return compact({
    offset: reader.enumAttribute("offset", CLOCK_OFFSETS) ?? "utc",
    timezone: reader.attribute("timezone"),
    adjustment: reader.attribute("adjustment"),
    timers: nonEmpty(
      reader.children("timer").map((timer) =>
        compact({
          name: timer.requiredEnumAttribute("name", TIMER_NAMES),
          tickPolicy: timer.enumAttribute("tickpolicy", TICK_POLICIES),
          present: timer.booleanAttribute("present"),
          track: timer.enumAttribute("track", TIMER_TRACKS),
        }),
      ),
    ),
  });
}

/** `<qemu:commandline>`, whatever prefix the document binds to QEMU's namespace. */
function qemuCommandline(root: ElementReader): QemuCommandline | undefined {
  const declarations = root.element.attributes ?? {};
  const isQemu = (element: XmlElement) => elementNamespace(element, declarations) === QEMU_NAMESPACE;
  const commandline = root
    .elements()
    .find((element) => isQemu(element) && localName(element) === "commandline");
  if (!commandline) return undefined;
  const reader = new ElementReader(commandline, `${root.path}/${commandline.name}`);
  const named = (name: string) => reader.elements().filter((element) => localName(element) === name);
  const args = named("arg").map((arg) => new ElementReader(arg, reader.path).requiredAttribute("value"));
  const env = named("env").map((entry) => {
    const envReader = new ElementReader(entry, reader.path);
    return compact({ name: envReader.requiredAttribute("name"), value: envReader.attribute("value") });
  });
  return compact({ args: nonEmpty(args), env: nonEmpty(env) });
}

function lifecycle<T extends string>(
  root: ElementReader,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const reader = root.child(name);
  return reader && parseEnum(reader.requiredText(), allowed, reader.path);
}

/** Reads a parsed `<domain>` element. */
export function domainFromXmlElement(element: XmlElement): DomainDefinition {
  if (element.name !== "domain")
    throw new DomainXmlError(`the root element is <${element.name}>, not <domain>`, "");
  const root = new ElementReader(element, "domain");
  const optional = <T>(name: string, read: (reader: ElementReader) => T): T | undefined => {
    const reader = root.child(name);
    return reader && read(reader);
  };
  const domain: DomainDefinition = {
    type: root.requiredEnumAttribute("type", DOMAIN_TYPES),
    id: root.integerAttribute("id"),
    name: root.requiredChild("name").requiredText(),
    uuid: root.childText("uuid"),
    title: root.childText("title"),
    description: root.childText("description"),
    metadata: optional("metadata", (metadata) => metadata.elements()),
    memory: memorySize(root.requiredChild("memory")),
    currentMemory: optional("currentMemory", memorySize),
    vcpu: vcpu(root.child("vcpu")),
    cputune: optional("cputune", (cputune) =>
      compact({ shares: parseInteger(cputune.childText("shares")?.trim(), `${cputune.path}/shares`) }),
    ),
    cpu: optional("cpu", cpu),
    os: os(root.requiredChild("os")),
    features: optional("features", features),
    clock: optional("clock", clock),
    onPoweroff: lifecycle(root, "on_poweroff", LIFECYCLE_ACTIONS),
    onReboot: lifecycle(root, "on_reboot", LIFECYCLE_ACTIONS),
    onCrash: lifecycle(root, "on_crash", CRASH_ACTIONS),
    devices: parseDevices(root.child("devices")),
    qemuCommandline: qemuCommandline(root),
  };
  return compact(domain);
}

/** Reads domain XML, such as virDomainGetXMLDesc returns. */
export function domainFromXml(xml: string): DomainDefinition {
  return domainFromXmlElement(parseXmlDocument(xml));
}
