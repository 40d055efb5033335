import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AdmittedWrites } from "../admission/admitted-writes.js";
import { ApiError, methodNotAllowed } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { ObjectService } from "../objects/object-service.js";
import type { PodLogSource } from "../pod-logs.js";
import { decodeKubernetesProtobuf } from "../protobuf/decode-kubernetes-protobuf.js";
import type { ServiceAccountTokens } from "../serviceaccounts/service-account-tokens.js";
import { EventDecoder } from "./event-decoder.js";
import { streamPodLog } from "./pod-log-stream.js";
import { bindPod } from "./pod-subresources.js";
import { getObject, listObjects } from "./read-handlers.js";
import { type RequestTarget, resolveTarget } from "./request-target.js";
import { addWarnings, sendJson } from "./responses.js";
import { getScale, patchScale, updateScale } from "./scale.js";
import { prepareWatch } from "./watch-handler.js";
import {
  createObject,
  parseJsonBody,
  patchObject,
  updateObject,
  type WriteRequest,
} from "./write-handlers.js";

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

/** Checks a write before it is made, from what it would store (RBAC's escalation check). */
export interface WriteGuard {
  /** Whether this request's write must be checked, and so computed first as a dry run. */
  applies(target: RequestTarget, request: IncomingMessage): boolean;
  /** Throws the ApiError that refuses the write whose result is `object`. */
  check(target: RequestTarget, object: JsonObject, request: IncomingMessage): void;
}

/** What the subresources and resources that are not plain objects read from or write to. */
export interface SubresourceBackends {
  /** pods/log reads from it; without one, every container is answered as not started yet. */
  podLogs: PodLogSource | undefined;
  /** serviceaccounts/token issues tokens with it. */
  tokens: ServiceAccountTokens;
  /** Answers POSTs to create-only resources (authorization.k8s.io's access reviews). */
  createOnly: (request: CreateOnlyRequest) => { object: JsonObject; warnings: string[] };
  writeGuard: WriteGuard;
}

/** kubectl's typed clients (`create token`, `auth can-i`) send protobuf; other clients send JSON. */
function typedClientBody(write: WriteRequest): JsonValue {
  const mediaType = (write.contentType ?? "").split(";")[0]?.trim();
  if (mediaType === "application/vnd.kubernetes.protobuf") return decodeKubernetesProtobuf(write.rawBody);
  return parseJsonBody(write.body);
}

function bodyBytes(request: FastifyRequest): Buffer {
  const body = request.body;
  if (body === undefined || body === null) return Buffer.alloc(0);
  return Buffer.isBuffer(body) ? body : Buffer.from(String(body));
}

/**
 * Serves every resource path: get, list, watch, create, update, patch, delete and
 * deletecollection, and the status, scale, binding, log and token subresources.
 */
export function registerResourceRoutes(
  app: FastifyInstance,
  service: ObjectService,
  backends: SubresourceBackends,
  admission: AdmittedWrites,
): void {
  const decoder = new EventDecoder();
  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const { segments, query } = splitPath(request.url);
    const target = targetOf(service, segments);
    if (!target) throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    const write: WriteRequest = {
      target,
      query,
      contentType: request.headers["content-type"],
      body: bodyBytes(request).toString("utf8"),
      rawBody: bodyBytes(request),
      userAgent: request.headers["user-agent"],
    };
    const accept = request.headers.accept;
    const { name, subresource } = target;
    /** Runs the write as a dry run first when the guard wants to see its result. */
    const guard = (write: WriteRequest, run: (request: WriteRequest) => { object: JsonObject }): void => {
      if (!backends.writeGuard.applies(target, request.raw)) return;
      const dryRun = new URLSearchParams(write.query);
      dryRun.set("dryRun", "All");
      backends.writeGuard.check(target, run({ ...write, query: dryRun }).object, request.raw);
    };
    if (target.type.verbs) {
      if (request.method !== "POST" || name !== undefined || !target.type.verbs.includes("create")) {
        throw methodNotAllowed("the server does not allow this method on the requested resource");
      }
      const outcome = backends.createOnly({
        target,
        body: typedClientBody(write),
        query,
        request: request.raw,
      });
      addWarnings(reply, outcome.warnings);
      return sendJson(reply, 201, outcome.object);
    }
    switch (request.method) {
      case "GET": {
        if (subresource === "log") return streamPodLog(service, backends.podLogs, target, query, reply);
        if (subresource === "scale") return sendJson(reply, 200, getScale(service, target));
        if (name !== undefined) return sendJson(reply, 200, getObject(service, { target, query, accept }));
        if (query.get("watch") === "true" || query.get("watch") === "1") {
          const stream = prepareWatch(service, decoder, { target, query, accept });
          reply.hijack();
          stream(reply.raw);
          return undefined;
        }
        return sendJson(reply, 200, listObjects(service, { target, query, accept }));
      }
      case "POST": {
        if (subresource === "binding") {
          return sendJson(reply, 201, bindPod(service, target, parseJsonBody(write.body)));
        }
        if (subresource === "token") {
          const body = typedClientBody(write);
          return sendJson(reply, 201, backends.tokens.createToken(target.namespace, name ?? "", body));
        }
        if (name !== undefined)
          throw methodNotAllowed(`the server does not allow this method on the requested resource`);
        guard(write, (w) => createObject(service, w));
        const outcome = await admission.create(write, request.raw);
        addWarnings(reply, outcome.warnings);
        return sendJson(reply, 201, outcome.object);
      }
      case "PUT": {
        if (name === undefined)
          throw methodNotAllowed("the server does not allow this method on the requested resource");
        if (subresource === "scale")
          return sendJson(reply, 200, updateScale(service, target, parseJsonBody(write.body)));
        guard(write, (w) => updateObject(service, w));
        const outcome = await admission.update(write, request.raw);
        addWarnings(reply, outcome.warnings);
        return sendJson(reply, 200, outcome.object);
      }
      case "PATCH": {
        if (name === undefined)
          throw methodNotAllowed("the server does not allow this method on the requested resource");
        if (subresource === "scale") return sendJson(reply, 200, patchScale(service, target, write));
        guard(write, (w) => patchObject(service, w));
        const outcome = await admission.patch(write, request.raw);
        addWarnings(reply, outcome.warnings);
        return sendJson(reply, outcome.created ? 201 : 200, outcome.object);
      }
      case "DELETE": {
        if (subresource !== undefined)
          throw methodNotAllowed("the server does not allow this method on the requested resource");
        const result: JsonObject =
          name === undefined
            ? await admission.deleteCollection(write, request.raw)
            : await admission.deleteOne(write, request.raw);
        return sendJson(reply, 200, result);
      }
      default:
        throw methodNotAllowed(`the server does not allow the method ${request.method}`);
    }
  };
  for (const prefix of ["/api/*", "/apis/*"]) {
    app.route({ method: ["GET", "POST", "PUT", "PATCH", "DELETE"], url: prefix, handler: handle });
  }
}
