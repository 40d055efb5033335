/**
 * virt-api's HTTPS server (fastify): health and metrics, the webhooks, the subresource API, and
 * WebSocket upgrades for console/vnc. Every error is answered as a Kubernetes Status.
 */
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { VersionInfo } from "../../api/index.js";
import type { TlsMaterial } from "../../runtime/tls/tls-material.js";
import { streamUpgrades } from "../console/stream-upgrade.js";
import { asStatusError, pathNotFound } from "../status/status-error.js";
import type { SubresourceDependencies } from "../subresources/subresource-dependencies.js";
import { registerSubresourceRoutes } from "../subresources/subresource-routes.js";
import { registerWebhookRoutes, type WebhookDependencies } from "../webhooks/webhook-routes.js";
import { type Readiness, registerHealthRoutes } from "./health-routes.js";
import { followServingTls, type ServingTlsSources, servingTlsOptions } from "./serving-tls.js";

export interface VirtApiServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly tls: ServingTlsSources;
  /** The serving certificate to start with (the sources' current one). */
  readonly initialMaterial: TlsMaterial;
  readonly registry: Registry;
  readonly readiness: Readiness;
  readonly subresources: SubresourceDependencies;
  readonly webhooks: WebhookDependencies;
  readonly versionInfo: VersionInfo;
  readonly log: Logger;
}

export interface RunningVirtApiServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** AdmissionReviews carry whole objects (a VM with cloud-init can be large). */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export async function startVirtApiServer(options: VirtApiServerOptions): Promise<RunningVirtApiServer> {
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    https: servingTlsOptions(options.initialMaterial, options.tls.requestHeader.current()),
  });
  // Bodies arrive as text whatever their type: subresource options may be YAML or JSON (KubeVirt
  // reads both) or empty, and each endpoint decodes (and refuses) with its own message.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error, request, reply) => {
    const status = asStatusError(error);
    if (status.code >= 500)
      options.log.error({ err: error, method: request.method, url: request.url }, "request failed");
    return reply.code(status.code).type("application/json").send(status.status);
  });
  app.setNotFoundHandler((request, reply) => {
    const status = pathNotFound(request.url).status;
    return reply.code(404).type("application/json").send(status);
  });
  registerHealthRoutes(app, options.registry, options.readiness);
  registerWebhookRoutes(app, options.webhooks);
  registerSubresourceRoutes(app, options.subresources, options.versionInfo);
  await app.ready();
  const server = app.server as HttpsServer;
  const streams = streamUpgrades(options.subresources);
  server.on("upgrade", streams.listener);
  const stopFollowing = followServingTls(server, options.tls, options.log);
  await app.listen({ host: options.host, port: options.port });
  const port = (server.address() as AddressInfo).port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `https://${host}:${port}`,
    port,
    async close() {
      stopFollowing();
      // Streams and keep-alive connections are long-lived: end them, or close() would wait for them.
      streams.closeAll();
      server.closeAllConnections();
      await app.close();
    },
  };
}
