/**
 * portforward: a WebSocket upgrade on `.../{virtualmachineinstances,virtualmachines}/NAME/
 * portforward/{port}[/{protocol}]`. As KubeVirt, virt-api itself dials the guest (the VMI's first
 * interface address) rather than going through virt-handler. Everything that can fail (caller,
 * RBAC, port, VMI, address, the dial itself) is settled before the upgrade is accepted, so a
 * failure is an HTTP Status virtctl prints; then the WebSocket and the guest's socket are joined.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import type { WebSocketServer } from "ws";
import { refuseUpgrade } from "../../runtime/index.js";
import { asStatusError } from "../status/status-error.js";
import { admitCaller } from "../subresources/admit-caller.js";
import type { RequestTarget } from "../subresources/request-target.js";
import type { SubresourceDependencies } from "../subresources/subresource-dependencies.js";
import { forwardAddressOf } from "./forward-address.js";
import { forwardedPortOf } from "./forwarded-port.js";
import { dialGuest, type GuestConnection } from "./guest-dial.js";
import { pipeToGuest } from "./guest-pipe.js";

export async function upgradePortForward(
  deps: SubresourceDependencies,
  server: WebSocketServer,
  target: RequestTarget,
  request: { incoming: IncomingMessage; socket: Duplex; head: Buffer },
): Promise<void> {
  const { incoming, socket, head } = request;
  let guest: GuestConnection;
  let forwarded: ReturnType<typeof forwardedPortOf>;
  try {
    await admitCaller(deps, socket as TLSSocket, incoming.headersDistinct, target);
    forwarded = forwardedPortOf(target.forward);
    const address = await forwardAddressOf(deps, target);
    guest = await dialGuest(address, forwarded);
  } catch (error) {
    const status = asStatusError(error);
    if (status.code >= 500) deps.log.error({ err: error, url: incoming.url }, "cannot open the port-forward");
    deps.metrics.request("portforward", status.code);
    refuseUpgrade(socket, status.status);
    return;
  }
  if (socket.destroyed) {
    // The caller gave up while we were connecting.
    closeGuest(guest);
    return;
  }
  server.handleUpgrade(incoming, socket, head, (client) => {
    deps.metrics.request("portforward", 101);
    const closed = deps.metrics.streamOpened("portforward");
    const log = deps.log.child({
      stream: "portforward",
      namespace: target.namespace,
      name: target.name,
      port: forwarded.port,
      protocol: forwarded.protocol,
    });
    log.info("tunnel opened");
    void pipeToGuest(client, guest, { pingIntervalMs: deps.pingIntervalMs, log }).then((end) => {
      closed();
      log.info(end, "tunnel closed");
    });
  });
}

function closeGuest(guest: GuestConnection): void {
  if (guest.protocol === "tcp") guest.socket.destroy();
  else guest.socket.close();
}
