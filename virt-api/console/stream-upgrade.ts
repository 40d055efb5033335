/**
 * console and vnc: a WebSocket upgrade on
 * `/apis/subresources.kubevirt.io/v1/namespaces/NS/virtualmachineinstances/NAME/{console,vnc}`
 * (portforward's upgrade is handed to portforward/port-forward-upgrade.ts).
 * Everything that can fail is settled before the caller's upgrade is accepted (caller, RBAC, the
 * VMI, the handler's own WebSocket), so a failure is an ordinary HTTP answer with a Status that
 * virtctl prints; then the two WebSockets are joined.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import { type WebSocket, WebSocketServer } from "ws";
import { refuseUpgrade } from "../../runtime/index.js";
import { PLAIN_STREAM_PROTOCOL } from "../handler/handler-client.js";
import { upgradePortForward } from "../portforward/port-forward-upgrade.js";
import { asStatusError, pathNotFound } from "../status/status-error.js";
import { admitCaller } from "../subresources/admit-caller.js";
import { readVmi } from "../subresources/read-vmi.js";
import { handlerPathOf, requestTargetOf } from "../subresources/request-target.js";
import type { SubresourceDependencies } from "../subresources/subresource-dependencies.js";
import { checkVmiFor } from "../subresources/vmi-checks.js";
import { pipeWebSockets } from "./websocket-pipe.js";

export interface StreamUpgrades {
  /** The HTTPS server's `upgrade` listener. */
  readonly listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Ends every open stream (virt-api stopping): the callers see 1001 Going Away. */
  closeAll(): void;
}

export function streamUpgrades(deps: SubresourceDependencies): StreamUpgrades {
  const server = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    // KubeVirt's subprotocol is chosen when offered; a client offering none is served too.
    handleProtocols: (offered) => (offered.has(PLAIN_STREAM_PROTOCOL) ? PLAIN_STREAM_PROTOCOL : false),
  });
  return {
    listener: (request, socket, head) => {
      socket.on("error", (error) => deps.log.debug({ err: error }, "stream socket error before the upgrade"));
      void upgrade(deps, server, request, socket, head);
    },
    closeAll: () => {
      for (const client of server.clients) client.close(1001, "virt-api is shutting down");
    },
  };
}

async function upgrade(
  deps: SubresourceDependencies,
  server: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const target = requestTargetOf(request.url);
  if (target?.subresource === "portforward") {
    await upgradePortForward(deps, server, target, { incoming: request, socket, head });
    return;
  }
  let handler: WebSocket | undefined;
  try {
    if (!target || (target.subresource !== "console" && target.subresource !== "vnc"))
      throw pathNotFound(request.url ?? "");
    await admitCaller(deps, socket as TLSSocket, request.headersDistinct, target);
    const vmi = await readVmi(deps.vmis, { namespace: target.namespace, name: target.name });
    checkVmiFor(target.subresource, vmi);
    const address = await deps.handlerLocator.addressFor(vmi);
    handler = await deps.handlerClient.openStream(address, handlerPathOf(target));
  } catch (error) {
    const status = asStatusError(error);
    if (status.code >= 500) deps.log.error({ err: error, url: request.url }, "cannot open the stream");
    if (target) deps.metrics.request(target.subresource, status.code);
    refuseUpgrade(socket, status.status);
    return;
  }
  if (socket.destroyed) {
    // The caller gave up while we were connecting.
    handler.close(1001, "the client went away");
    return;
  }
  const connected = handler;
  const subresource = target.subresource as "console" | "vnc";
  server.handleUpgrade(request, socket, head, (client) => {
    deps.metrics.request(subresource, 101);
    const closed = deps.metrics.streamOpened(subresource);
    const log = deps.log.child({ stream: subresource, namespace: target.namespace, name: target.name });
    log.info("stream opened");
    void pipeWebSockets(client, connected, { pingIntervalMs: deps.pingIntervalMs, log }).then((end) => {
      closed();
      log.info(end, "stream closed");
    });
  });
}
