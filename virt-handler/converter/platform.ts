// Platform features (ACPI, APIC, SMM), the clock and its timers, and what happens when the guest powers
// off, reboots or crashes.
import type { Clock, Timer } from "../../libvirt/domain-xml/index.js";
import type { Configurator, ConversionInput } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

type VmiClock = NonNullable<ConversionInput["spec"]["domain"]["clock"]>;
type VmiTimers = NonNullable<VmiClock["timer"]>;

// The schema restricts both per timer; what reaches XML is checked again against libvirt's values.
const TICK_POLICIES: readonly NonNullable<Timer["tickPolicy"]>[] = ["delay", "catchup", "merge", "discard"];
const TRACKS: readonly NonNullable<Timer["track"]>[] = ["boot", "guest", "wall", "realtime"];

function knownValue<T extends string>(what: string, value: string, known: readonly T[]): T {
  const found = known.find((candidate) => candidate === value);
  if (found === undefined) {
    throw new VmiConversionError("InvalidSpec", `${what} ${value} is not one of ${known.join(", ")}`);
  }
  return found;
}

export const configureFeatures: Configurator = (domain, { spec }) => {
  const features = spec.domain.features;
  domain.features = {
    ...domain.features,
    // ACPI is on unless switched off (KubeVirt's default); without it there is no power button.
    ...(features?.acpi?.enabled === false ? {} : { acpi: true }),
    ...(features?.apic?.enabled === false ? {} : { apic: true }),
    ...(features?.smm?.enabled === undefined ? {} : { smm: features.smm.enabled }),
  };
};

/** KubeVirt's timer names → libvirt's; `kvm` and `hyperv` are kvmclock and hypervclock. */
function timers(timer: VmiTimers | undefined): Timer[] | undefined {
  if (timer === undefined) return undefined;
  const result: Timer[] = [];
  const add = (
    name: Timer["name"],
    source: { present?: boolean; tickPolicy?: string; track?: string } | undefined,
  ) => {
    if (source === undefined) return;
    const entry: Timer = { name, present: source.present ?? true };
    if (source.tickPolicy)
      entry.tickPolicy = knownValue(`timer ${name}: tickPolicy`, source.tickPolicy, TICK_POLICIES);
    if (source.track) entry.track = knownValue(`timer ${name}: track`, source.track, TRACKS);
    result.push(entry);
  };
  add("hpet", timer.hpet);
  add("pit", timer.pit);
  add("rtc", timer.rtc);
  add("kvmclock", timer.kvm);
  add("hypervclock", timer.hyperv);
  return result.length > 0 ? result : undefined;
}

/** UTC by default; utc.offsetSeconds shifts it; a timezone name makes the guest clock local to it. */
function clockElement(clock: VmiClock | undefined): Clock {
  let element: Clock = { offset: "utc" };
  if (clock?.timezone) element = { offset: "timezone", timezone: clock.timezone };
  else if (clock?.utc?.offsetSeconds) {
    const offset = clock.utc.offsetSeconds;
    if (!Number.isSafeInteger(offset))
      throw new VmiConversionError("InvalidSpec", `clock.utc.offsetSeconds ${offset} is not an integer`);
    element = { offset: "variable", adjustment: String(offset) };
  }
  const list = timers(clock?.timer);
  if (list !== undefined) element.timers = list;
  return element;
}

export const configureClock: Configurator = (domain, { spec }) => {
  domain.clock = clockElement(spec.domain.clock);
};

/** Power-off and crash end the domain (virt-handler reports the VMI Succeeded/Failed); a reboot stays in it. */
export const configureLifecycle: Configurator = (domain, { spec }) => {
  domain.onPoweroff = "destroy";
  domain.onReboot = spec.domain.rebootPolicy === "Terminate" ? "destroy" : "restart";
  domain.onCrash = "destroy";
};
