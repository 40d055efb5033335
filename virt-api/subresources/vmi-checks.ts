/**
 * What a VMI must be for each of its subresources, with KubeVirt's status codes and messages
 * (virt-api's pause/unpause/guestosinfo validations, console.go and vnc.go).
 */
import type { VirtualMachineInstance } from "../kinds.js";
import type { SubresourceName } from "../server/virt-api-metrics.js";
import { badRequest, conflict, forbidden, VIRTUAL_MACHINE_INSTANCE } from "../status/status-error.js";

type VmiSubresource = Extract<
  SubresourceName,
  "pause" | "unpause" | "guestosinfo" | "userlist" | "filesystemlist" | "console" | "vnc"
>;

export function checkVmiFor(subresource: VmiSubresource, vmi: VirtualMachineInstance): void {
  const name = vmi.metadata?.name ?? "";
  const running = vmi.status?.phase === "Running";
  switch (subresource) {
    case "pause":
      if (!running) throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VM is not running");
      if (vmi.spec.livenessProbe) {
        throw forbidden(
          VIRTUAL_MACHINE_INSTANCE,
          name,
          "Pausing VMIs with LivenessProbe is currently not supported",
        );
      }
      if (hasCondition(vmi, "Paused"))
        throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI is already paused");
      return;
    case "unpause":
      if (!running || !hasCondition(vmi, "Paused"))
        throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI is not paused");
      return;
    case "guestosinfo":
    case "userlist":
    case "filesystemlist":
      if (!running) throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI is not running");
      if (!hasCondition(vmi, "AgentConnected")) {
        throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI does not have guest agent connected");
      }
      return;
    case "console":
      if (vmi.spec.domain.devices.autoattachSerialConsole === false)
        throw badRequest("No serial consoles are present.");
      if (vmi.status?.phase === "Failed")
        throw conflict(VIRTUAL_MACHINE_INSTANCE, name, "VMI is in failed status");
      if (!running) throw badRequest("VMI is not running");
      return;
    case "vnc":
      if (vmi.spec.domain.devices.autoattachGraphicsDevice === false)
        throw badRequest("No graphics devices are present.");
      if (!running) throw badRequest("VMI is not running");
      return;
  }
}

function hasCondition(vmi: VirtualMachineInstance, type: string): boolean {
  return (vmi.status?.conditions ?? []).some(
    (condition) => condition.type === type && condition.status !== "False",
  );
}
