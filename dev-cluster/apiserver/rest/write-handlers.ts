import { badRequest } from "../api-error.js";
import type { JsonObject, JsonValue } from "../json.js";
import { parseFieldValidation } from "../objects/decode.js";
import { deleteObject, parseDeleteOptions } from "../objects/deletion.js";
import type { ObjectService, WriteOptions, WriteOutcome } from "../objects/object-service.js";
import { parsePatchBody, patchTypeOf } from "../objects/patch-body.js";
import { decodeKubernetesProtobuf } from "../protobuf/decode-kubernetes-protobuf.js";
import { groupVersion } from "../registry/resource-registry.js";
import { objectFilter } from "./list-query.js";
import type { RequestTarget } from "./request-target.js";

export interface WriteRequest {
  target: RequestTarget;
  query: URLSearchParams;
  contentType: string | undefined;
  /** The body as text (JSON, or YAML for apply patches). */
  body: string;
  /** The body's bytes, for protobuf-encoded objects. */
  rawBody: Buffer;
  userAgent: string | undefined;
}

const PROTOBUF = "application/vnd.kubernetes.protobuf";

/** kube-apiserver names the manager of a write without fieldManager after the client's user agent. */
function managerOf(request: WriteRequest): string {
  const explicit = request.query.get("fieldManager");
  if (explicit) return explicit;
  const agent = request.userAgent ?? "unknown";
  return agent.split("/")[0] || "unknown";
}

export function writeOptions(request: WriteRequest): WriteOptions {
  const options: WriteOptions = {
    fieldManager: managerOf(request),
    fieldValidation: parseFieldValidation(request.query.get("fieldValidation")),
  };
  if (request.query.getAll("dryRun").includes("All")) options.dryRun = true;
  if (request.target.subresource) options.subresource = request.target.subresource;
  return options;
}

/** kubectl's typed commands (`kubectl create namespace`, ...) send protobuf; everything else JSON. */
function parseObjectBody(request: WriteRequest): JsonValue {
  const mediaType = (request.contentType ?? "").split(";")[0]?.trim();
  if (mediaType === PROTOBUF) return decodeKubernetesProtobuf(request.rawBody);
  return parseJsonBody(request.body);
}

export function parseJsonBody(body: string): JsonValue {
  if (body.trim() === "") throw badRequest("the request body is empty");
  try {
    return JSON.parse(body) as JsonValue;
  } catch (error) {
    throw badRequest(
      `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
}

export function createObject(service: ObjectService, request: WriteRequest): WriteOutcome {
  const { type, namespace } = request.target;
  return service.create(type, namespace, parseObjectBody(request), writeOptions(request));
}

export function updateObject(service: ObjectService, request: WriteRequest): WriteOutcome {
  const { type, namespace, name } = request.target;
  return service.update(type, namespace, name ?? "", parseObjectBody(request), writeOptions(request));
}

export function patchObject(service: ObjectService, request: WriteRequest): WriteOutcome {
  const { type, namespace, name } = request.target;
  const patchType = patchTypeOf(type, request.contentType);
  if (patchType === "apply" && !request.query.get("fieldManager")) {
    throw badRequest(
      "PATCH requests of type apply require fieldManager: fieldManager: Required value: is required for apply patch",
    );
  }
  const force = request.query.get("force") === "true";
  if (force && patchType !== "apply")
    throw badRequest("force: Invalid value: true: may not be specified for non-apply patch");
  const patch = parsePatchBody(patchType, request.body);
  return service.patch(type, namespace, name ?? "", patchType, patch, { ...writeOptions(request), force });
}

export function deleteOne(service: ObjectService, request: WriteRequest): JsonObject {
  const { type, namespace, name } = request.target;
  const body = request.body.trim() === "" ? undefined : parseJsonBody(request.body);
  return deleteObject(service, type, namespace, name ?? "", parseDeleteOptions(body, request.query));
}

export function deleteCollection(service: ObjectService, request: WriteRequest): JsonObject {
  const { type, namespace, namespaced } = request.target;
  const body = request.body.trim() === "" ? undefined : parseJsonBody(request.body);
  const options = parseDeleteOptions(body, request.query);
  const filter = objectFilter(type, request.query);
  const deleted = service
    .list(type, namespaced ? namespace : undefined)
    .items.filter(filter)
    .map((object) => {
      const metadata = object.metadata as JsonObject;
      return deleteObject(
        service,
        type,
        String(metadata.namespace ?? ""),
        String(metadata.name ?? ""),
        options,
      );
    });
  return { kind: type.listKind, apiVersion: groupVersion(type), metadata: {}, items: deleted };
}
