// A VMI's status computed from its domain's state (pure functions: no clock, no I/O). Recomputing
// from the same facts gives the same status, transition times included, so an unchanged domain
// never causes a write.
import {
  isHotpluggableVolume,
  type VirtualMachineInstancePhase,
  type VirtualMachineInstanceStatus,
  VMI_CONDITION_TYPES,
  VMI_READY_REASONS,
} from "../../api/index.js";
import type { NetworkInterface } from "../../libvirt/domain-xml/index.js";
import { CrashedReason, DomainState, PausedReason, ShutoffReason } from "../../libvirt/index.js";
import {
  type ConditionUpdate,
  type Frozen,
  mutableCopy,
  removeCondition,
  setCondition,
  wireTimeMillis,
} from "../../runtime/index.js";
import type { DomainFacts } from "../domain/observed-domain.js";
import { agentProbeKind } from "../guest-agent/agent-probe-state.js";
import { agentProbeReadiness, applyGuestAgentStatus } from "../guest-agent/agent-status.js";
import type { Vmi } from "../kinds.js";
import { POD_INTERFACE } from "../network/masquerade-plan.js";
import { withoutPullFailure } from "./image-pull-status.js";

export type VmiStatus = VirtualMachineInstanceStatus;
type InterfaceStatus = NonNullable<VmiStatus["interfaces"]>[number];

/** How a VMI ended: its final phase and why. */
export interface FinalOutcome {
  readonly phase: "Succeeded" | "Failed";
  readonly reason: string;
  readonly message: string;
}

/** How a domain that is no longer running ended (libvirt's shutoff or crashed reason). */
export function outcomeOfStoppedDomain(facts: DomainFacts): FinalOutcome {
  if (facts.state === DomainState.Crashed) {
    return facts.reason === CrashedReason.Panicked
      ? failed("GuestPanicked", "the guest kernel panicked")
      : failed("Crashed", "the domain crashed");
  }
  switch (facts.reason) {
    case ShutoffReason.Shutdown:
      return { phase: "Succeeded", reason: "GuestShutdown", message: "the guest powered itself off" };
    case ShutoffReason.Saved:
    case ShutoffReason.FromSnapshot:
    case ShutoffReason.Migrated:
      return { phase: "Succeeded", reason: "Stopped", message: "the domain was stopped by libvirt" };
    case ShutoffReason.Destroyed:
      return failed("Destroyed", "the domain was destroyed outside of KubeVirt");
    case ShutoffReason.Crashed:
      return failed("Crashed", "QEMU exited unexpectedly (the domain crashed)");
    case ShutoffReason.Failed:
      return failed("Failed", "QEMU failed to run the domain");
    case ShutoffReason.Daemon:
      return failed("Daemon", "libvirtd stopped the domain");
    default:
      return failed("Unknown", "the domain stopped for an unknown reason");
  }
}

function failed(reason: string, message: string): FinalOutcome {
  return { phase: "Failed", reason, message };
}

/** The status of a VMI whose domain runs (or is paused). */
export function runningStatus(
  vmi: Frozen<Vmi>,
  facts: DomainFacts,
  now: number,
  podIPs: readonly string[] = [],
  launcherReady?: LauncherReadiness,
): VmiStatus {
  const status = withPhase(vmi, "Running", now);
  delete status.reason;
  // The images were pulled: a pull failure of an earlier attempt no longer holds.
  const conditions = withoutPullFailure(status.conditions);
  if (conditions !== undefined) status.conditions = conditions;
  const paused = facts.state === DomainState.Paused && facts.reason !== PausedReason.StartingUp;
  status.conditions = setCondition(
    status.conditions,
    paused
      ? { type: VMI_CONDITION_TYPES.ready, status: "False", reason: VMI_READY_REASONS.guestNotRunning }
      : agentProbeKind(vmi.spec.readinessProbe) !== undefined
        ? agentProbeReadiness(facts.agent)
        : vmi.spec.readinessProbe !== undefined
          ? probedReadiness(launcherReady)
          : { type: VMI_CONDITION_TYPES.ready, status: "True" },
    now,
  );
  status.conditions = paused
    ? setCondition(status.conditions, pausedCondition(facts.reason), now)
    : removeCondition(status.conditions, VMI_CONDITION_TYPES.paused);
  status.interfaces = interfaceStatuses(vmi, facts.interfaces, podIPs);
  const volumeStatus = hotplugVolumeStatus(vmi, status.volumeStatus, facts.disks);
  if (volumeStatus?.length === 0) delete status.volumeStatus;
  else if (volumeStatus !== undefined) status.volumeStatus = volumeStatus;
  applyGuestAgentStatus(status, facts.agent, now);
  return status;
}

/** The launcher pod's Ready condition, which its readiness probe (the VMI's) drives. */
export interface LauncherReadiness {
  status: string;
  reason?: string;
  message?: string;
}

/**
 * With a readiness probe the VMI is Ready when its launcher pod is (KubeVirt's
 * syncReadyConditionFromPod): the kubelet runs the probe against the guest.
 */
function probedReadiness(launcher: LauncherReadiness | undefined): ConditionUpdate {
  if (launcher === undefined) {
    return {
      type: VMI_CONDITION_TYPES.ready,
      status: "False",
      reason: VMI_READY_REASONS.podConditionMissing,
      message: "virt-launcher pod is missing the Ready condition",
    };
  }
  return {
    type: VMI_CONDITION_TYPES.ready,
    status: launcher.status === "True" ? "True" : "False",
    ...(launcher.status !== "True" && launcher.reason ? { reason: launcher.reason } : {}),
    ...(launcher.status !== "True" && launcher.message ? { message: launcher.message } : {}),
  };
}

function pausedCondition(reason: number): ConditionUpdate {
  const byIoError = reason === PausedReason.IOError;
  return {
    type: VMI_CONDITION_TYPES.paused,
    status: "True",
    reason: byIoError ? "PausedIOError" : "PausedByUser",
    message: byIoError ? "the VMI was paused by an I/O error" : "the VMI is paused",
  };
}

/** The status of a VMI that ended: final phase, its reason, not ready, not paused. */
export function finalStatus(vmi: Frozen<Vmi>, outcome: FinalOutcome, now: number): VmiStatus {
  const status = withPhase(vmi, outcome.phase, now);
  status.reason = outcome.reason;
  status.conditions = setCondition(
    removeCondition(status.conditions, VMI_CONDITION_TYPES.paused),
    {
      type: VMI_CONDITION_TYPES.ready,
      status: "False",
      reason: VMI_READY_REASONS.guestNotRunning,
      message: outcome.message,
    },
    now,
  );
  return status;
}

/** A copy of the status in `phase`, with the transition recorded when the phase changes. */
function withPhase(vmi: Frozen<Vmi>, phase: VirtualMachineInstancePhase, now: number): VmiStatus {
  const status = mutableCopy<VmiStatus>(vmi.status ?? {});
  if (status.phase === phase) return status;
  status.phase = phase;
  status.phaseTransitionTimestamps = [
    ...(status.phaseTransitionTimestamps ?? []),
    { phase, phaseTransitionTimestamp: wireTimeMillis(now) },
  ];
  return status;
}

/**
 * `status.interfaces` from the domain's NICs: the VMI interface each came from (by the converter's
 * user alias "ua-<name>", else by position) and its MAC. A NIC in the launcher pod's network
 * namespace (the tap of a masquerade or bridge interface, a passt NIC) is reached at the pod's addresses, as KubeVirt
 * reports them; QEMU's user-mode network is reachable at no address, so none is reported.
 */
export function interfaceStatuses(
  vmi: Frozen<Vmi>,
  interfaces: readonly NetworkInterface[],
  podIPs: readonly string[] = [],
): InterfaceStatus[] {
  const specInterfaces = vmi.spec.domain.devices.interfaces ?? [];
  return interfaces.map((nic, index) => {
    const name = nic.alias?.startsWith("ua-") ? nic.alias.slice(3) : specInterfaces[index]?.name;
    const entry: InterfaceStatus = { infoSource: "domain" };
    if (name !== undefined) entry.name = name;
    if (nic.mac !== undefined) entry.mac = nic.mac;
    const inPod = nic.type === "ethernet" || nic.backend?.type === "passt";
    if (inPod && podIPs.length > 0) {
      entry.ipAddress = podIPs[0];
      entry.ipAddresses = [...podIPs];
      entry.podInterfaceName = POD_INTERFACE;
    }
    return entry;
  });
}

type VolumeStatus = NonNullable<VmiStatus["volumeStatus"]>[number];

/**
 * The hotplugged volumes as the live domain has them (KubeVirt's words): one the spec holds and the
 * domain has is Ready at its target, keeping what virt-controller recorded for it (the claim, the
 * attachment pod); one the spec dropped is Detaching while the domain still has it, and its entry
 * goes once the guest let it go (virt-controller then deletes its attachment pod). Undefined:
 * nothing to say.
 */
function hotplugVolumeStatus(
  vmi: Frozen<Vmi>,
  current: readonly VolumeStatus[] | undefined,
  liveDisks: ReadonlyMap<string, string> | undefined,
): VolumeStatus[] | undefined {
  const volumes = vmi.spec.volumes ?? [];
  const hotplugged = volumes.filter(isHotpluggableVolume);
  const specNames = new Set(volumes.map((volume) => volume.name));
  const dropped = (current ?? []).filter((entry) => !specNames.has(entry.name));
  if ((hotplugged.length === 0 && dropped.length === 0) || liveDisks === undefined) return undefined;
  const entries: VolumeStatus[] = [];
  for (const entry of current ?? []) {
    const copy = structuredClone(entry) as VolumeStatus;
    if (specNames.has(entry.name)) entries.push(copy);
    else if (liveDisks.has(entry.name)) {
      entries.push(
        Object.assign(copy, {
          phase: "Detaching",
          reason: "VolumeDetaching",
          message: `Detaching hotplugged volume ${entry.name} from VM`,
        }),
      );
    }
  }
  for (const volume of hotplugged) {
    const target = liveDisks.get(volume.name);
    if (target === undefined) continue;
    const ready = {
      target,
      phase: "Ready",
      reason: "VolumeReady",
      message: `Successfully attach hotplugged volume ${volume.name} to VM`,
    };
    const existing = entries.find((entry) => entry.name === volume.name);
    if (existing) Object.assign(existing, ready);
    else entries.push({ name: volume.name, ...ready });
  }
  return entries;
}
