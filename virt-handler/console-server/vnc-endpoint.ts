// The VNC server of a VMI: QEMU listens on the unix socket the domain's live definition names
// (the converter puts it in the VM's state directory). Each viewer gets its own connection: QEMU's
// VNC server takes several.
import { connect, type Socket } from "node:net";
import { domainFailure } from "./domain-errors.js";
import { HttpError } from "./http-status.js";
import type { LocatedDomain } from "./vmi-domain-locator.js";

export function vncSocketPath(located: LocatedDomain): string {
  for (const graphics of located.definition?.devices.graphics ?? []) {
    if (graphics.type === "vnc" && graphics.listen?.type === "socket") return graphics.listen.socket;
  }
  throw new HttpError(
    400,
    "BadRequest",
    "the VMI has no VNC graphics (spec.domain.devices.autoattachGraphicsDevice is false)",
  );
}

/** Connects to the VMI's VNC socket; resolves once connected. */
export function connectVnc(located: LocatedDomain): Promise<Socket> {
  const path = vncSocketPath(located);
  return new Promise((resolve, reject) => {
    const socket = connect({ path });
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", (error) => reject(domainFailure(`connect to the VNC server at ${path}`, error)));
  });
}
