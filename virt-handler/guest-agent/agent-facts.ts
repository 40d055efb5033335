// What virt-handler knows about a VM's guest agent: whether it is connected (libvirt's live domain XML
// says so on the agent channel's target), and what it last reported (the GuestAgentMonitor's cache).
import type { DomainDefinition } from "../../libvirt/domain-xml/index.js";
import type { GuestOSInfo, InterfaceAddresses } from "../../libvirt/index.js";
import { GUEST_AGENT_CHANNEL_NAME } from "../converter/guest-agent-channel.js";

/** What the agent last reported, while it is connected. */
export interface GuestAgentReport {
  readonly osInfo: GuestOSInfo | undefined;
  readonly interfaces: readonly InterfaceAddresses[];
}

/** The result of a readiness probe run through the agent (exec, guestAgentPing). */
export interface AgentReadiness {
  readonly ready: boolean;
  readonly message?: string;
}

export interface GuestAgentFacts {
  readonly connected: boolean;
  /** Undefined until the monitor's first answer from the agent. */
  readonly report?: GuestAgentReport;
  /** Set when the VMI's readiness probe runs through the agent and has been tracked. */
  readonly readiness?: AgentReadiness;
}

/** Whether libvirt reports the agent channel of a running domain as connected. */
export function agentChannelConnected(definition: DomainDefinition | undefined): boolean {
  const channels = definition?.devices.channels ?? [];
  return channels.some(
    (channel) => channel.target.name === GUEST_AGENT_CHANNEL_NAME && channel.target.state === "connected",
  );
}

/** Where the reconciler reads the monitor's last report of a domain (by domain name). */
export interface GuestAgentReports {
  reportOf(domainName: string): GuestAgentReport | undefined;
  /** The agent readiness probe's result (agent-probes.ts), if the VMI has one. */
  readinessOf?(domainName: string): AgentReadiness | undefined;
}
