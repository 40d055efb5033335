import { type IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { UserInfo } from "../auth/authenticator.js";
import { sendJson } from "../rest/responses.js";
import type { AggregatedDiscovery } from "./aggregated-discovery.js";
import { type ApiServiceCatalog, apiServiceTls } from "./api-services.js";
import type { FrontProxyCertificates } from "./front-proxy-certificates.js";
import { serviceUnavailable } from "./proxy-responses.js";
import { type ProxyTarget, proxyRequest } from "./request-proxy.js";
import { type ServiceResolver, serviceDnsName } from "./service-resolver.js";
import { proxyUpgrade } from "./upgrade-proxy.js";

export interface AggregationProxyDeps {
  catalog: ApiServiceCatalog;
  resolver: ServiceResolver;
  discovery: AggregatedDiscovery;
  frontProxy: FrontProxyCertificates;
  /** Who a request acts as (set by the authentication and authorization hook). */
  userOf: (request: IncomingMessage) => UserInfo;
}

/** The connection of an upgrade request, which Node hands over outside the request/response pair. */
interface UpgradeConnection {
  socket: Duplex;
  head: Buffer;
}

const upgradeConnections = new WeakMap<IncomingMessage, UpgradeConnection>();

function pathSegments(url: string): string[] {
  const path = url.split("?", 1)[0] ?? "";
  return path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/**
 * API aggregation in the request path (kube-aggregator's proxy handler): requests under
 * `/apis/<group>/<version>` of an APIService with a Service go to that Service's backend, as the
 * authenticated user (front-proxy certificate and X-Remote-* headers), upgrades included;
 * `/apis/<group>` of a group only other servers serve is answered here. An APIService that is
 * not Available, or whose Service has no endpoint, answers 503 `service unavailable`.
 */
export class AggregationProxy {
  readonly #deps: AggregationProxyDeps;
  readonly #tunnels = new Set<Duplex>();

  constructor(deps: AggregationProxyDeps) {
    this.#deps = deps;
  }

  /**
   * Hooks into `app`. Call after the authentication and authorization hook: the proxy runs after
   * it and relies on it. Upgrade requests are routed through the app like any other, so they
   * meet the same hooks; only those for aggregated APIs are upgraded.
   */
  register(app: FastifyInstance): void {
    app.server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgradeConnections.set(request, { socket, head });
      const response = new ServerResponse(request);
      response.assignSocket(socket as Socket);
      // An upgrade answered by a plain route (an error, a non-aggregated path) ends the connection.
      response.on("finish", () => socket.end());
      socket.on("error", () => socket.destroy());
      try {
        app.routing(request, response);
      } catch {
        socket.destroy();
      }
    });
    app.addHook("onRequest", async (request, reply) => this.#route(request, reply));
  }

  /** Closes the joined connections of upgraded requests (the HTTP server no longer tracks them). */
  close(): void {
    for (const socket of this.#tunnels) socket.destroy();
    this.#tunnels.clear();
  }

  async #route(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const [root, group, version] = pathSegments(request.url);
    if (root !== "apis" || group === undefined) return undefined;
    if (version === undefined) {
      const apiGroup = request.method === "GET" ? this.#deps.discovery.apiGroup(group) : undefined;
      return apiGroup ? sendJson(reply, 200, apiGroup) : undefined;
    }
    const apiService = this.#deps.catalog.find(group, version);
    if (!apiService) return undefined;
    if (!apiService.available) throw serviceUnavailable();
    let target: ProxyTarget;
    try {
      const endpoint = this.#deps.resolver.resolve(apiService.service);
      const tls = apiServiceTls(apiService, this.#deps.frontProxy);
      target = { endpoint, tls, host: `${serviceDnsName(apiService.service)}:${apiService.service.port}` };
    } catch {
      // As kube-aggregator: the client learns only that the service is unavailable.
      throw serviceUnavailable();
    }
    const user = this.#deps.userOf(request.raw);
    reply.hijack();
    const upgrade = upgradeConnections.get(request.raw);
    if (upgrade) {
      reply.raw.detachSocket(upgrade.socket as Socket);
      reply.raw.removeAllListeners("finish");
      proxyUpgrade(request.raw, upgrade.socket, upgrade.head, target, user, this.#tunnels);
    } else {
      proxyRequest(request.raw, reply.raw, target, user);
    }
    return reply;
  }
}
