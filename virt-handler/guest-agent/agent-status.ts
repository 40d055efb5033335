// The parts of a running VMI's status the guest agent provides, as KubeVirt reports them: the
// AgentConnected condition, status.guestOSInfo, and the agent's view of the interfaces merged into
// status.interfaces by MAC (pkg/network/vmispec/infosource.go's "domain, guest-agent" and "guest-agent").
import { type VirtualMachineInstanceStatus, VMI_CONDITION_TYPES } from "../../api/index.js";
import { type InterfaceAddresses, IPAddressType } from "../../libvirt/index.js";
import { type ConditionUpdate, removeCondition, setCondition } from "../../runtime/index.js";
import type { GuestAgentFacts } from "./agent-facts.js";

type VmiStatus = VirtualMachineInstanceStatus;
type InterfaceStatus = NonNullable<VmiStatus["interfaces"]>[number];

export const INFO_SOURCE_DOMAIN_AND_AGENT = "domain, guest-agent";
export const INFO_SOURCE_AGENT = "guest-agent";
/** KubeVirt adds at most this many interfaces that only the guest knows. */
const MAX_GUEST_ONLY_INTERFACES = 10;

/** Sets (in place) the condition, the OS info and the agent's interfaces on a running VMI's status. */
export function applyGuestAgentStatus(
  status: VmiStatus,
  agent: GuestAgentFacts | undefined,
  now: number,
): void {
  if (agent?.connected !== true) {
    status.conditions = removeCondition(status.conditions, VMI_CONDITION_TYPES.agentConnected);
    delete status.guestOSInfo;
    return;
  }
  status.conditions = setCondition(
    status.conditions,
    { type: VMI_CONDITION_TYPES.agentConnected, status: "True" },
    now,
  );
  const os = agent.report?.osInfo;
  if (os !== undefined) {
    const { id, name, prettyName, version, versionId, kernelRelease, kernelVersion, machine } = os;
    const info = { id, name, prettyName, version, versionId, kernelRelease, kernelVersion, machine };
    status.guestOSInfo = Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined));
  }
  if (agent.report !== undefined) {
    status.interfaces = mergeAgentInterfaces(status.interfaces ?? [], agent.report.interfaces);
  }
}

/**
 * Ready as the agent readiness probe says (virt-handler runs it: agent-probes.ts); not ready until
 * its first success, with the last failure as the message (KubeVirt's pod condition would carry it).
 */
export function agentProbeReadiness(agent: GuestAgentFacts | undefined): ConditionUpdate {
  const readiness = agent?.readiness;
  if (readiness?.ready) return { type: VMI_CONDITION_TYPES.ready, status: "True" };
  return {
    type: VMI_CONDITION_TYPES.ready,
    status: "False",
    reason: "ReadinessProbeFailed",
    message: readiness?.message ?? "the readiness probe has not succeeded yet",
  };
}

/** The loopback has no MAC (all zeros); KubeVirt reports none of it. */
function isGuestNic(nic: InterfaceAddresses): nic is InterfaceAddresses & { hardwareAddress: string } {
  return nic.name !== "lo" && nic.hardwareAddress !== null && nic.hardwareAddress !== "00:00:00:00:00:00";
}

function addressesOf(nic: InterfaceAddresses, dropLinkLocal: boolean): string[] {
  return nic.addresses
    .filter((ip) => !(dropLinkLocal && ip.type === IPAddressType.IPv6 && /^fe80:/i.test(ip.address)))
    .map((ip) => ip.address);
}

const isIPv6 = (address: string): boolean => address.includes(":");

/**
 * The domain's interfaces with the agent's name and addresses (matched by MAC), then the guest's
 * own interfaces. Per address family the status keeps the addresses it has (the pod's, for an
 * interface in the pod) and takes the agent's where it has none.
 */
export function mergeAgentInterfaces(
  entries: readonly InterfaceStatus[],
  reported: readonly InterfaceAddresses[],
): InterfaceStatus[] {
  const guest = reported.filter(isGuestNic);
  const matched = new Set<InterfaceAddresses>();
  const merged = entries.map((entry) => {
    const nic = guest.find((candidate) => sameMac(candidate.hardwareAddress, entry.mac));
    if (nic === undefined) return entry;
    matched.add(nic);
    const agentIPs = addressesOf(nic, entry.podInterfaceName !== undefined);
    const current = entry.ipAddresses ?? [];
    const keep = (v6: boolean) => current.filter((ip) => isIPv6(ip) === v6);
    const take = (v6: boolean) => agentIPs.filter((ip) => isIPv6(ip) === v6);
    const ips = [false, true].flatMap((v6) => (keep(v6).length > 0 ? keep(v6) : take(v6)));
    const next: InterfaceStatus = {
      ...entry,
      interfaceName: nic.name,
      infoSource: INFO_SOURCE_DOMAIN_AND_AGENT,
    };
    if (ips.length > 0) {
      next.ipAddress = ips[0];
      next.ipAddresses = ips;
    }
    return next;
  });
  const guestOnly = guest
    .filter((nic) => !matched.has(nic))
    .slice(0, MAX_GUEST_ONLY_INTERFACES)
    .map((nic): InterfaceStatus => {
      const ips = addressesOf(nic, false);
      return {
        infoSource: INFO_SOURCE_AGENT,
        interfaceName: nic.name,
        mac: nic.hardwareAddress,
        ...(ips.length > 0 ? { ipAddress: ips[0], ipAddresses: ips } : {}),
      };
    });
  return [...merged, ...guestOnly];
}

function sameMac(left: string, right: string | undefined): boolean {
  return right !== undefined && left.toLowerCase() === right.toLowerCase();
}
