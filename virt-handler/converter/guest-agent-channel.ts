// The QEMU guest agent's channel: a virtio-serial port named org.qemu.guest_agent.0 in the guest,
// a unix socket QEMU listens on in the VM's directory. Every domain gets it, as in KubeVirt: the guest
// decides whether an agent answers on it, and libvirt reports its connection state.
import { dirname, join } from "node:path";
import type { ChannelDevice } from "../../libvirt/domain-xml/index.js";
import { AGENT_SOCKET_NAME } from "../domain/socket-paths.js";
import type { Configurator } from "./configurator.js";

/** The virtio-serial port name qemu-ga opens in the guest (/dev/virtio-ports/<name>). */
export const GUEST_AGENT_CHANNEL_NAME = "org.qemu.guest_agent.0";

export const configureGuestAgentChannel: Configurator = (domain, { options }) => {
  const path = options.agentSocketPath ?? join(dirname(options.vncSocketPath), AGENT_SOCKET_NAME);
  const channel: ChannelDevice = {
    type: "unix",
    sourceMode: "bind",
    sourcePath: path,
    target: { type: "virtio", name: GUEST_AGENT_CHANNEL_NAME },
  };
  domain.devices.channels = [...(domain.devices.channels ?? []), channel];
};
