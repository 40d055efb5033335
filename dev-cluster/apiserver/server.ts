import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { withStorageAdmission } from "./admission/storage-admission.js";
import { createWebhookAdmission } from "./admission/webhook-admission.js";
import {
  type AggregationLayer,
  type AggregationSettings,
  startAggregationLayer,
} from "./aggregation/aggregation-layer.js";
import { ServiceResolver } from "./aggregation/service-resolver.js";
import { ApiError } from "./api-error.js";
import { type Authenticator, chainAuthenticators } from "./auth/authenticator.js";
import { createReview } from "./authorization/access-reviews.js";
import { authorizationResourceTypes } from "./authorization/authorization-kinds.js";
import { type Authorizer, RbacAuthorizer } from "./authorization/authorizer.js";
import { ensureBootstrapPolicy } from "./authorization/bootstrap-reconcile.js";
import { ClusterRoleAggregation } from "./authorization/cluster-role-aggregation.js";
import { EscalationCheck } from "./authorization/escalation-check.js";
import { RbacObjects } from "./authorization/rbac-objects.js";
import { authorizeRequest } from "./authorization/request-authorization.js";
import { RequestIdentities } from "./authorization/request-identities.js";
import { RuleResolver } from "./authorization/rule-resolver.js";
import { builtinResourceTypes } from "./builtin/builtin-resource-types.js";
import { CrdLifecycle } from "./controllers/crd-lifecycle.js";
import { GarbageCollector } from "./controllers/garbage-collector.js";
import { NamespaceLifecycle } from "./controllers/namespace-lifecycle.js";
import { parseFieldValidation } from "./objects/decode.js";
import { GuardedWrites, type WriteGuard } from "./objects/guarded-writes.js";
import { ObjectService } from "./objects/object-service.js";
import type { ObjectWrites } from "./objects/object-writes.js";
import { StoredWrites } from "./objects/stored-writes.js";
import type { PodLogSource } from "./pod-logs.js";
import { ResourceRegistry, storageResource } from "./registry/resource-registry.js";
import type { ResourceType } from "./resource-type.js";
import { registerDiscoveryRoutes } from "./rest/discovery-routes.js";
import { registerResourceRoutes, type SubresourceBackends } from "./rest/resource-routes.js";
import { asApiError, sendError } from "./rest/responses.js";
import { registerOidcDiscoveryRoutes } from "./serviceaccounts/oidc-discovery-routes.js";
import {
  type ServiceAccountTokenSettings,
  ServiceAccountTokens,
} from "./serviceaccounts/service-account-tokens.js";
import { DEFAULT_NODE_PORT_RANGE, DEFAULT_SERVICE_CIDR } from "./services/address-ranges.js";
import { ensureKubernetesService } from "./services/kubernetes-service.js";
import { ServiceAllocator, withServiceAllocation } from "./services/service-allocator.js";
import { ObjectStore } from "./storage/object-store.js";

/** kube-apiserver's limit on request bodies. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

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
  /** Container logs for pods/log (the node agent keeps them); without it every container reads as not started. */
  podLogs?: PodLogSource;
  /** The signing key, issuer and audiences of service-account tokens. */
  serviceAccountTokens?: ServiceAccountTokenSettings;
  /** IPv4 range of Service cluster IPs (default 10.96.0.0/12); its first address is the `kubernetes` Service's. */
  serviceCidr?: string;
  /** The address the `kubernetes` Service's endpoints hold (default: host, or 127.0.0.1 when host is a wildcard). */
  advertiseAddress?: string;
  /** The port the endpoints hold (default: the listening port), when a relay listens at the advertised address. */
  advertisePort?: number;
  /** The front proxy's certificates for API aggregation; without them APIServices are stored but not served. */
  aggregation?: AggregationSettings;
}

export interface RunningApiServer {
  /** `https://<host>:<port>` */
  url: string;
  port: number;
  service: ObjectService;
  /** Issues and validates service-account tokens (in-process users such as the node agent ask it directly). */
  serviceAccountTokens: ServiceAccountTokens;
  close(): Promise<void>;
}

const SERVICES = storageResource({ group: "", plural: "services" });

/**
 * The built-in types, with cluster IP and node port allocation added to Services, the storage
 * admission plugins to PVCs and PVs, and the access reviews.
 */
function resourceTypes(allocator: ServiceAllocator, store: ObjectStore): ResourceType[] {
  const builtin = builtinResourceTypes().map((type) =>
    type.group === "" && type.plural === "services"
      ? withServiceAllocation(type, allocator)
      : withStorageAdmission(type, store),
  );
  return [...builtin, ...authorizationResourceTypes()];
}

function advertisedAddress(options: ApiServerOptions): string {
  if (options.advertiseAddress) return options.advertiseAddress;
  return options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
}

/**
 * Starts the API server: storage, the resource registry, the in-process controllers (garbage
 * collection, namespace and CRD lifecycle), the HTTPS endpoints real clients use, and the
 * `default/kubernetes` Service that points at them.
 */
export async function startApiServer(options: ApiServerOptions): Promise<RunningApiServer> {
  const cidr = options.serviceCidr ?? DEFAULT_SERVICE_CIDR;
  const allocator = new ServiceAllocator(() => store.list(SERVICES), cidr, DEFAULT_NODE_PORT_RANGE);
  const store = new ObjectStore({
    path: options.storagePath,
    ...(options.historySize ? { historySize: options.historySize } : {}),
  });
  const registry = new ResourceRegistry(resourceTypes(allocator, store));
  const service = new ObjectService({ store, registry, now: options.now ?? (() => new Date()) });
  const tokens = new ServiceAccountTokens(service, options.serviceAccountTokens);
  const rbacObjects = new RbacObjects(store);
  const ruleResolver = new RuleResolver(rbacObjects);
  const authorizer = new RbacAuthorizer(ruleResolver);
  const escalation = new EscalationCheck(authorizer, ruleResolver);
  const controllers = [
    new CrdLifecycle(service, options.log),
    new GarbageCollector(service, options.log),
    new NamespaceLifecycle(service, options.log),
    new ClusterRoleAggregation(service, options.log),
    rbacObjects,
  ];
  (controllers[2] as NamespaceLifecycle).ensureInitialNamespaces();
  ensureBootstrapPolicy(service, options.log);

  const identities = new RequestIdentities();
  const userOf = (request: IncomingMessage) => identities.get(request);
  const resolver = new ServiceResolver(service);
  // The write path, each layer wrapping the next: the escalation guard, admission webhooks, the store.
  const storedWrites = new StoredWrites(service);
  const admission = createWebhookAdmission({
    service,
    inner: storedWrites,
    resolver,
    log: options.log,
    userOf,
  });
  const escalationGuard: WriteGuard = {
    applies: (target, request) =>
      target.subresource === undefined &&
      escalation.applies(identities.get(request), target.type.group, target.type.plural),
    check: (target, object, request) =>
      escalation.check(
        identities.get(request),
        { plural: target.type.plural, namespace: target.namespace, urlName: target.name ?? "" },
        object,
      ),
  };
  const aggregation =
    options.aggregation &&
    startAggregationLayer({ service, resolver, log: options.log, userOf, settings: options.aggregation });
  let url = "";
  const app = buildHttpServer(options, {
    service,
    registry,
    authenticator: chainAuthenticators([options.authenticator, tokens.authenticator]),
    authorizer,
    backends: {
      podLogs: options.podLogs,
      tokens,
      createOnly: ({ target, body, query, request }) =>
        createReview(authorizer, {
          type: target.type,
          namespace: target.namespace,
          body,
          requester: identities.get(request),
          fieldValidation: parseFieldValidation(query.get("fieldValidation")),
        }),
    },
    identities,
    writes: new GuardedWrites(escalationGuard, storedWrites, admission.writes),
    aggregation,
    url: () => url,
  });
  let closed = false;
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    for (const controller of controllers) controller.stop();
    aggregation?.stop();
    admission.stop();
    store.close();
    throw new Error(`cannot listen on ${options.host}:${options.port}`, { cause: error });
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  url = `https://${options.host}:${port}`;
  try {
    ensureKubernetesService(
      service,
      { ip: advertisedAddress(options), port: options.advertisePort ?? port },
      allocator.kubernetesServiceIp,
    );
  } catch (error) {
    options.log.error({ err: error }, "cannot create the default/kubernetes Service");
  }
  return {
    url,
    port,
    service,
    serviceAccountTokens: tokens,
    async close() {
      if (closed) return;
      closed = true;
      for (const controller of controllers) controller.stop();
      aggregation?.stop();
      admission.stop();
      // Watches are long-lived: end them rather than wait for clients to hang up.
      app.server.closeAllConnections();
      await app.close();
      store.close();
    },
  };
}

interface HttpServerParts {
  service: ObjectService;
  registry: ResourceRegistry;
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Who each request acts as, for the handlers that answer about the requester. */
  identities: RequestIdentities;
  backends: SubresourceBackends;
  /** The writes the REST handlers make: guarded, admitted, stored. */
  writes: ObjectWrites;
  aggregation: AggregationLayer | undefined;
  /** The server's URL, known once it listens. */
  url: () => string;
}

function buildHttpServer(options: ApiServerOptions, parts: HttpServerParts): FastifyInstance {
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
  // Authentication, impersonation and authorization, before any route: a 401 or 403 goes to the error handler.
  app.addHook("onRequest", async (request) => {
    authorizeRequest(parts, request.raw);
  });
  // After authorization: aggregated APIs are proxied as the authorized user.
  parts.aggregation?.proxy.register(app);
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
  registerDiscoveryRoutes(app, parts.registry, parts.aggregation?.discovery);
  registerResourceRoutes(app, parts.service, parts.writes, parts.backends);
  registerOidcDiscoveryRoutes(app, parts.backends.tokens, parts.url);
  return app;
}
