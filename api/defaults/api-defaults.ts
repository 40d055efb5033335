import type { FeatureState, Features } from "../vmi/features.js";
import type { Probe } from "../vmi/probe.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";

/**
 * KubeVirt's API-level defaults (`defaults.go` and the generated SetObjectDefaults): the ones
 * applied to every VMI spec, including the templates inside VMs and replica sets. These helpers
 * fill in a spec the caller owns (a fresh copy); the exported defaulting functions make that copy.
 */
export function fillApiDefaults(spec: VirtualMachineInstanceSpec): void {
  const domain = spec.domain;
  domain.firmware ??= {};
  domain.features ??= {};
  fillFeatureDefaults(domain.features);
  fillClockDefaults(spec);
  for (const disk of domain.devices.disks ?? []) {
    if (disk.disk === undefined && disk.cdrom === undefined && disk.lun === undefined) disk.disk = {};
    if (disk.cdrom !== undefined) {
      disk.cdrom.readonly ??= true;
      disk.cdrom.tray ??= "closed";
    }
  }
  const watchdog = domain.devices.watchdog;
  if (watchdog !== undefined) {
    if (watchdog.i6300esb === undefined && watchdog.diag288 === undefined) watchdog.i6300esb = {};
    if (watchdog.i6300esb !== undefined) watchdog.i6300esb.action ??= "reset";
    if (watchdog.diag288 !== undefined) watchdog.diag288.action ??= "reset";
  }
  for (const input of domain.devices.inputs ?? []) {
    if (input.bus === undefined || input.bus === "") input.bus = "usb";
    if (input.type === "") input.type = "tablet";
  }
  fillProbeDefaults(spec.readinessProbe);
  fillProbeDefaults(spec.livenessProbe);
}

function enable(state: FeatureState | undefined): void {
  if (state !== undefined) state.enabled ??= true;
}

function fillFeatureDefaults(features: Features): void {
  // ACPI is a value (not a pointer) in KubeVirt's Go type, so it always ends up enabled.
  features.acpi ??= {};
  enable(features.acpi);
  enable(features.apic);
  enable(features.smm);
  enable(features.pvspinlock);
  const hyperv = features.hyperv;
  if (hyperv === undefined) return;
  for (const state of [
    hyperv.relaxed,
    hyperv.vapic,
    hyperv.vpindex,
    hyperv.runtime,
    hyperv.synic,
    hyperv.reset,
    hyperv.frequencies,
    hyperv.reenlightenment,
    hyperv.ipi,
    hyperv.evmcs,
    hyperv.vendorid,
    hyperv.synictimer,
    hyperv.synictimer?.direct,
    hyperv.tlbflush,
    hyperv.tlbflush?.direct,
    hyperv.tlbflush?.extended,
  ]) {
    enable(state);
  }
  if (hyperv.spinlocks !== undefined) {
    hyperv.spinlocks.enabled ??= true;
    if (hyperv.spinlocks.enabled) hyperv.spinlocks.spinlocks ??= 4096;
  }
}

function fillClockDefaults(spec: VirtualMachineInstanceSpec): void {
  const timer = spec.domain.clock?.timer;
  if (timer === undefined) return;
  for (const entry of [timer.hpet, timer.kvm, timer.pit, timer.rtc, timer.hyperv]) {
    if (entry !== undefined) entry.present ??= true;
  }
}

/** Probe thresholds below 1 take Kubernetes' defaults. */
function fillProbeDefaults(probe: Probe | undefined): void {
  if (probe === undefined) return;
  if ((probe.timeoutSeconds ?? 0) < 1) probe.timeoutSeconds = 1;
  if ((probe.periodSeconds ?? 0) < 1) probe.periodSeconds = 10;
  if ((probe.successThreshold ?? 0) < 1) probe.successThreshold = 1;
  if ((probe.failureThreshold ?? 0) < 1) probe.failureThreshold = 3;
}
