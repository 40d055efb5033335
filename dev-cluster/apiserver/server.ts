import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { ApiError } from "./api-error.js";
import type { Authenticator } from "./auth/authenticator.js";
import { builtinResourceTypes } from "./builtin/builtin-resource-types.js";
import { CrdLifecycle } from "./controllers/crd-lifecycle.js";
import { GarbageCollector } from "./controllers/garbage-collector.js";
import { NamespaceLifecycle } from "./controllers/namespace-lifecycle.js";
import { ObjectService } from "./objects/object-service.js";
import { ResourceRegistry } from "./registry/resource-registry.js";
import { registerDiscoveryRoutes } from "./rest/discovery-routes.js";
import { registerResourceRoutes } from "./rest/resource-routes.js";
import { asApiError, sendError } from "./rest/responses.js";
import { ObjectStore } from "./storage/object-store.js";

/** kube-apiserver's limit on request bodies. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;
/** Paths anyone may read, as kube-apiserver's default RBAC allows them to system:unauthenticated. */
const PUBLIC_PATHS = new Set(["/version", "/healthz", "/livez", "/readyz"]);

export interface ApiServerOptions {
  /** SQLite file of the store, or ":memory:". */
  storagePath: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  tls: { certPem: string; keyPem: string };
  authenticator: Authenticator;
  log: Logger;
  now?: () => Date;
  /** How many recent changes watches can resume from (default 10,000). */
  historySize?: number;
}

export interface RunningApiServer {
  /** `https://<host>:<port>` */
  url: string;
  port: number;
  service: ObjectService;
  close(): Promise<void>;
}

/**
 * Starts the API server: storage, the resource registry, the in-process controllers (garbage
 * collection, namespace and CRD lifecycle), and the HTTPS endpoints real clients use.
 */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const store = new ObjectStore({
    path: options.storagePath,
    ...(options.historySize ? { historySize: options.historySize } : {}),
  });
  const registry = new ResourceRegistry(builtinResourceTypes());
  const service = new ObjectService({ store, registry, now: options.now ?? (() => new Date()) });
  const controllers = [
    new CrdLifecycle(service, options.log),
    new GarbageCollector(service, options.log),
    new NamespaceLifecycle(service, options.log),
  ];
  (controllers[2] as NamespaceLifecycle).ensureInitialNamespaces();

  const app = buildHttpServer(options, service, registry);
  let closed = false;
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    for (const controller of controllers) controller.stop();
    store.close();
    throw new Error(`cannot listen on ${options.host}:${options.port}`, { cause: error });
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `https://${options.host}:${port}`,
    port,
    service,
    async close() {
      if (closed) return;
      closed = true;
      for (const controller of controllers) controller.stop();
      // Watches are long-lived: end them rather than wait for clients to hang up.
      app.server.closeAllConnections();
      await app.close();
      store.close();
    },
  };
}

function buildHttpServer(
  options: ApiServerOptions,
  service: ObjectService,
  registry: ResourceRegistry,
): FastifyInstance {
  const app = Fastify({
    https: { cert: options.tls.certPem, key: options.tls.keyPem },
    bodyLimit: MAX_BODY_BYTES,
    logger: false,
    // Object names may be long, and kubectl sends long query strings.
    routerOptions: { maxParamLength: 1024 },
    forceCloseConnections: true,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "";
    if (PUBLIC_PATHS.has(path)) return;
    const user = options.authenticator.authenticate(request.headers.authorization);
    if (!user) {
      await sendError(reply, new ApiError(401, "Unauthorized", "Unauthorized"));
    }
  });
  app.setErrorHandler((error: FastifyError | Error, _request, reply) => {
    const fastifyError = error as FastifyError;
    if (fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return sendError(
        reply,
        new ApiError(413, "RequestEntityTooLarge", "the request body is larger than 3 MiB"),
      );
    }
    const apiError = asApiError(error);
    if (apiError.code >= 500) options.log.error({ err: error }, "request failed");
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((_request, reply) =>
    sendError(reply, new ApiError(404, "NotFound", "the server could not find the requested resource")),
  );
  for (const path of ["/healthz", "/livez", "/readyz"])
    app.get(path, (_request, reply) => reply.type("text/plain").send("ok"));
  registerDiscoveryRoutes(app, registry);
  registerResourceRoutes(app, service);
  return app;
}
