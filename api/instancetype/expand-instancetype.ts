import { Quantity } from "../../runtime/quantity/quantity.js";
import { child } from "../validation/field-path.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { guestCpuTopology } from "./cpu-topology.js";
import type { VirtualMachineInstancetypeSpec } from "./instancetype-spec.js";
import type { VirtualMachinePreferenceSpec } from "./preference-spec.js";

/**
 * An instancetype applied to a VMI spec (KubeVirt's `pkg/instancetype/apply`): what it sets, the
 * spec must leave unset. Mutates `spec` (the caller's copy) and returns the paths of the fields
 * that conflict, under `base` (`spec.template.spec` for a VM, `spec` for a VMI); with conflicts
 * the spec is left half-applied and must be thrown away.
 */
export function applyInstancetype(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  preference: VirtualMachinePreferenceSpec | undefined,
  spec: VirtualMachineInstanceSpec,
  annotations: Record<string, string>,
): string[] {
  return [
    ...applyNodeSelector(base, instancetype, spec),
    ...applySchedulerName(base, instancetype, spec),
    ...applyCpu(base, instancetype, preference, spec),
    ...applyMemory(base, instancetype, spec),
    ...applyDomainField(base, instancetype, spec, "ioThreadsPolicy"),
    ...applyDomainField(base, instancetype, spec, "ioThreads"),
    ...applyDomainField(base, instancetype, spec, "launchSecurity"),
    ...applyDevices(base, instancetype, spec),
    ...applyAnnotations(instancetype.annotations, annotations),
  ];
}

function applyNodeSelector(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
): string[] {
  if (instancetype.nodeSelector === undefined) return [];
  if (spec.nodeSelector !== undefined) return [child(base, "nodeSelector")];
  spec.nodeSelector = { ...instancetype.nodeSelector };
  return [];
}

function applySchedulerName(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
): string[] {
  if (!instancetype.schedulerName) return [];
  if (spec.schedulerName) return [child(base, "schedulerName")];
  spec.schedulerName = instancetype.schedulerName;
  return [];
}

/** KubeVirt's validateCPU: every conflict is reported, then nothing is applied. */
function cpuConflicts(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
): string[] {
  const cpu = spec.domain.cpu ?? {};
  const resources = spec.domain.resources;
  const at = (...names: string[]) => child(base, "domain", ...names);
  const wanted = instancetype.cpu;
  const checks: [boolean, string][] = [
    [resources?.requests?.cpu !== undefined, at("resources", "requests", "cpu")],
    [resources?.limits?.cpu !== undefined, at("resources", "limits", "cpu")],
    [Boolean(cpu.sockets), at("cpu", "sockets")],
    [Boolean(cpu.cores), at("cpu", "cores")],
    [Boolean(cpu.threads), at("cpu", "threads")],
    [Boolean(cpu.model) && wanted.model !== undefined, at("cpu", "model")],
    [
      cpu.dedicatedCpuPlacement === true && wanted.dedicatedCPUPlacement !== undefined,
      at("cpu", "dedicatedCPUPlacement"),
    ],
    [
      cpu.isolateEmulatorThread === true && wanted.isolateEmulatorThread !== undefined,
      at("cpu", "isolateEmulatorThread"),
    ],
    [cpu.numa !== undefined && wanted.numa !== undefined, at("cpu", "numa")],
    [cpu.realtime !== undefined && wanted.realtime !== undefined, at("cpu", "realtime")],
  ];
  return checks.filter(([conflicts]) => conflicts).map(([, path]) => path);
}

function applyCpu(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  preference: VirtualMachinePreferenceSpec | undefined,
  spec: VirtualMachineInstanceSpec,
): string[] {
  const conflicts = cpuConflicts(base, instancetype, spec);
  if (conflicts.length > 0) return conflicts;
  spec.domain.cpu ??= {};
  const cpu = spec.domain.cpu;
  const wanted = instancetype.cpu;
  if (wanted.model !== undefined) cpu.model = wanted.model;
  if (wanted.dedicatedCPUPlacement !== undefined) cpu.dedicatedCpuPlacement = wanted.dedicatedCPUPlacement;
  if (wanted.isolateEmulatorThread !== undefined) cpu.isolateEmulatorThread = wanted.isolateEmulatorThread;
  if (wanted.numa !== undefined) cpu.numa = structuredClone(wanted.numa);
  if (wanted.realtime !== undefined) cpu.realtime = structuredClone(wanted.realtime);
  if (wanted.maxSockets !== undefined) cpu.maxSockets = wanted.maxSockets;
  Object.assign(cpu, guestCpuTopology(wanted.guest, preference));
  return [];
}

/** KubeVirt's applyMemory: the first conflict only, as KubeVirt reports it. */
function applyMemory(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
): string[] {
  const memory = spec.domain.memory ?? {};
  const resources = spec.domain.resources;
  const wanted = instancetype.memory;
  const at = (...names: string[]) => child(base, "domain", ...names);
  const checks: [boolean, string][] = [
    [memory.guest !== undefined, at("memory", "guest")],
    [memory.hugepages !== undefined && wanted.hugepages !== undefined, at("memory", "hugepages")],
    [memory.maxGuest !== undefined && wanted.maxGuest !== undefined, at("memory", "maxGuest")],
    [resources?.requests?.memory !== undefined, at("resources", "requests", "memory")],
    [resources?.limits?.memory !== undefined, at("resources", "limits", "memory")],
  ];
  const conflict = checks.find(([conflicts]) => conflicts);
  if (conflict !== undefined) return [conflict[1]];
  spec.domain.memory = { ...memory, guest: wanted.guest };
  const overcommit = wanted.overcommitPercent ?? 0;
  if (overcommit > 0) {
    // The launcher pod requests that much less than the guest sees.
    spec.domain.resources ??= {};
    spec.domain.resources.requests = {
      ...(spec.domain.resources.requests ?? {}),
      memory: Quantity.parse(wanted.guest).scaledBy(100 - overcommit, 100).text,
    };
  }
  if (wanted.hugepages !== undefined) spec.domain.memory.hugepages = { ...wanted.hugepages };
  if (wanted.maxGuest !== undefined) spec.domain.memory.maxGuest = wanted.maxGuest;
  return [];
}

function applyDomainField(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
  field: "ioThreadsPolicy" | "ioThreads" | "launchSecurity",
): string[] {
  const wanted = instancetype[field];
  if (wanted === undefined) return [];
  if (spec.domain[field] !== undefined) return [child(base, "domain", field)];
  Object.assign(spec.domain, { [field]: structuredClone(wanted) });
  return [];
}

function applyDevices(
  base: string,
  instancetype: VirtualMachineInstancetypeSpec,
  spec: VirtualMachineInstanceSpec,
): string[] {
  const devices = spec.domain.devices;
  const conflicts: string[] = [];
  if (instancetype.gpus !== undefined) {
    if ((devices.gpus ?? []).length > 0) conflicts.push(child(base, "domain", "devices", "gpus"));
    else devices.gpus = structuredClone(instancetype.gpus);
  }
  if (instancetype.hostDevices !== undefined) {
    if ((devices.hostDevices ?? []).length > 0)
      conflicts.push(child(base, "domain", "devices", "hostDevices"));
    else devices.hostDevices = structuredClone(instancetype.hostDevices);
  }
  return conflicts;
}

/** The instancetype's annotations go onto the VMI; one the template sets differently conflicts. */
function applyAnnotations(
  wanted: Record<string, string> | undefined,
  annotations: Record<string, string>,
): string[] {
  const conflicts: string[] = [];
  for (const [name, value] of Object.entries(wanted ?? {})) {
    const current = annotations[name];
    if (current === undefined) annotations[name] = value;
    else if (current !== value) conflicts.push(child("annotations", name));
  }
  return conflicts;
}
