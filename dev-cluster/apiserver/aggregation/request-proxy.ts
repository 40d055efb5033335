import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { UserInfo } from "../auth/authenticator.js";
import { type BackendTls, tlsConnectionOptions } from "./backend-tls.js";
import { backendRequestHeaders, clientResponseHeaders } from "./proxy-headers.js";
import { sendStatus, serviceUnavailable } from "./proxy-responses.js";
import type { ResolvedEndpoint } from "./service-resolver.js";

/** Where a proxied request goes and how the backend is checked and authenticated to. */
export interface ProxyTarget {
  endpoint: ResolvedEndpoint;
  tls: BackendTls;
  /** The Host header sent: `<service>.<namespace>.svc:<port>`. */
  host: string;
}

/** The request to the backend: the client's method and path, with the front proxy's headers and TLS. */
export function openBackendRequest(
  request: IncomingMessage,
  target: ProxyTarget,
  user: UserInfo,
  upgrade: boolean,
): ClientRequest {
  return httpsRequest({
    host: target.endpoint.host,
    port: target.endpoint.port,
    method: request.method,
    path: request.url,
    headers: backendRequestHeaders(request, user, { host: target.host, upgrade }),
    agent: false,
    ...tlsConnectionOptions(target.tls),
  });
}

/**
 * Proxies one plain request to an aggregated API server: method, path and query as the client
 * sent them, the body streamed through, the backend's status, headers and body streamed back
 * (watches included). A backend that cannot be reached (connection, TLS) gets the client a 503
 * Status; a client that goes away aborts the backend request.
 */
export function proxyRequest(
  request: IncomingMessage,
  response: ServerResponse,
  target: ProxyTarget,
  user: UserInfo,
): void {
  const upstream = openBackendRequest(request, target, user, false);
  upstream.on("response", (backend) => {
    response.writeHead(backend.statusCode ?? 502, backend.statusMessage, clientResponseHeaders(backend));
    backend.pipe(response);
    backend.on("error", (error) => response.destroy(error));
  });
  upstream.on("error", (error) => {
    if (response.headersSent) {
      response.destroy(error);
      return;
    }
    sendStatus(response, serviceUnavailable(`error trying to reach service: ${error.message}`));
  });
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
  request.pipe(upstream);
}
