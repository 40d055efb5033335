import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, methodNotAllowed } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ObjectWrites } from "../objects/object-writes.js";
import type { RequestTarget } from "../objects/request-target.js";
import type { PodLogSource } from "../pod-logs.js";
import type { ServiceAccountTokens } from "../serviceaccounts/service-account-tokens.js";
import { EventDecoder } from "./event-decoder.js";
import { parseObjectBody, readRequestBody } from "./request-body.js";
import { resolveTarget } from "./request-target.js";
import { VERB_HANDLERS, type VerbBackends, verbOf } from "./resource-verbs.js";
import { addWarnings, sendJson } from "./responses.js";

function splitPath(url: string): { segments: string[]; query: URLSearchParams } {
  const [path = "", search = ""] = url.split("?", 2);
  return {
    segments: path
      .split("/")
      .filter((s) => s !== "")
      .map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

/** Resolves `/api/v1/...` or `/apis/<g>/<v>/...` to a target; undefined for discovery paths. */
function targetOf(service: ObjectService, segments: string[]): RequestTarget | undefined {
  if (segments[0] === "api" && segments.length > 2)
    return resolveTarget(service.registry, "", segments[1] ?? "", segments.slice(2));
  if (segments[0] === "apis" && segments.length > 3) {
    return resolveTarget(service.registry, segments[1] ?? "", segments[2] ?? "", segments.slice(3));
  }
  return undefined;
}

/** A POST to a create-only resource (one whose `verbs` are `["create"]`), which stores nothing. */
export interface CreateOnlyRequest {
  target: RequestTarget;
  body: JsonValue;
  query: URLSearchParams;
  /** The raw request, by which the handler learns who asks. */
  request: IncomingMessage;
}

/** What the subresources and resources that are not plain objects read from or write to. */
export interface SubresourceBackends {
  /** pods/log reads from it; without one, every container is answered as not started yet. */
  podLogs: PodLogSource | undefined;
  /** serviceaccounts/token issues tokens with it. */
  tokens: ServiceAccountTokens;
  /** Answers POSTs to create-only resources (authorization.k8s.io's access reviews). */
  createOnly: (request: CreateOnlyRequest) => { object: JsonObject; warnings: string[] };
}

/**
 * Serves every resource path: get, list, watch, create, update, patch, delete and
 * deletecollection, and the status, scale, binding, log and token subresources. Each request is
 * resolved to its target and verb, and handed to that verb's function; writes go to `writes`
 * (the guard and admission wrapping the store) and never come back up here.
 */
export function registerResourceRoutes(
  app: FastifyInstance,
  service: ObjectService,
  writes: ObjectWrites,
  backends: SubresourceBackends,
): void {
  const verbBackends: VerbBackends = {
    service,
    writes,
    decoder: new EventDecoder(),
    podLogs: backends.podLogs,
    tokens: backends.tokens,
  };
  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const { segments, query } = splitPath(request.url);
    const target = targetOf(service, segments);
    if (!target) throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    const body = readRequestBody(request);
    if (target.type.verbs) {
      if (request.method !== "POST" || target.name !== undefined || !target.type.verbs.includes("create")) {
        throw methodNotAllowed("the server does not allow this method on the requested resource");
      }
      const outcome = backends.createOnly({
        target,
        body: parseObjectBody(body),
        query,
        request: request.raw,
      });
      addWarnings(reply, outcome.warnings);
      return sendJson(reply, 201, outcome.object);
    }
    const verb = verbOf(request.method, target, query);
    if (!verb) throw methodNotAllowed(`the server does not allow the method ${request.method}`);
    return VERB_HANDLERS[verb](verbBackends, { target, query, body, request, reply });
  };
  for (const prefix of ["/api/*", "/apis/*"]) {
    app.route({ method: ["GET", "POST", "PUT", "PATCH", "DELETE"], url: prefix, handler: handle });
  }
}
