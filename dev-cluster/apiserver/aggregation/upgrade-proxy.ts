import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { UserInfo } from "../auth/authenticator.js";
import { clientResponseHeaders } from "./proxy-headers.js";
import { rawResponseHead, serviceUnavailable, writeRawStatus } from "./proxy-responses.js";
import { openBackendRequest, type ProxyTarget } from "./request-proxy.js";

/** Joins two sockets both ways; when either ends or fails, both are closed. */
function pipeBothWays(client: Duplex, backend: Duplex, tunnels: Set<Duplex>): void {
  tunnels.add(client);
  tunnels.add(backend);
  const close = () => {
    client.destroy();
    backend.destroy();
    tunnels.delete(client);
    tunnels.delete(backend);
  };
  for (const socket of [client, backend]) {
    socket.on("error", close);
    socket.on("close", close);
  }
  backend.pipe(client);
  client.pipe(backend);
}

/**
 * Proxies an upgrade request (WebSocket, SPDY: `Connection: Upgrade`) to an aggregated API
 * server: once the backend answers 101, its answer goes to the client and the two connections
 * are joined byte for byte. A backend that answers anything else has its answer relayed and the
 * connection closed; one that cannot be reached gets the client a 503 Status. `tunnels` holds
 * the joined sockets, so the server can close them when it stops.
 */
export function proxyUpgrade(
  request: IncomingMessage,
  client: Duplex,
  head: Buffer,
  target: ProxyTarget,
  user: UserInfo,
  tunnels: Set<Duplex>,
): void {
  const upstream = openBackendRequest(request, target, user, true);
  upstream.on("upgrade", (backend, backendSocket, backendHead) => {
    client.write(rawResponseHead(101, backend.statusMessage, clientResponseHeaders(backend, true)));
    if (backendHead.length > 0) client.write(backendHead);
    if (head.length > 0) backendSocket.write(head);
    pipeBothWays(client, backendSocket, tunnels);
  });
  upstream.on("response", (backend) => {
    const headers = [...clientResponseHeaders(backend), "Connection", "close"];
    client.write(rawResponseHead(backend.statusCode ?? 502, backend.statusMessage, headers));
    backend.pipe(client);
  });
  upstream.on("error", (error) =>
    writeRawStatus(client, serviceUnavailable(`error trying to reach service: ${error.message}`)),
  );
  client.on("error", () => upstream.destroy());
  upstream.end();
}
