import type { IncomingMessage } from "node:http";
import { badRequest } from "../api-error.js";
import { parseFieldValidation } from "../objects/decode.js";
import { parseDeleteOptions } from "../objects/deletion.js";
import { parsePatchBody, patchTypeOf } from "../objects/patch-body.js";
import type { RequestTarget } from "../objects/request-target.js";
import type {
  CreateRequest,
  DeleteCollectionRequest,
  DeleteRequest,
  PatchRequest,
  UpdateRequest,
  WriteRequestOptions,
} from "../objects/write-request.js";
import { objectFilter } from "./list-query.js";
import { parseObjectBody, parseOptionalJsonBody, type RequestBody } from "./request-body.js";

/** One HTTP request that writes, before it is decoded. */
export interface HttpWrite {
  target: RequestTarget;
  query: URLSearchParams;
  body: RequestBody;
  request: IncomingMessage;
}

/** kube-apiserver names the manager of a write without fieldManager after the client's user agent. */
function managerOf(http: HttpWrite): string {
  const explicit = http.query.get("fieldManager");
  if (explicit) return explicit;
  const agent = http.request.headers["user-agent"] ?? "unknown";
  return agent.split("/")[0] || "unknown";
}

function writeOptions(http: HttpWrite): WriteRequestOptions {
  const fieldValidation = parseFieldValidation(http.query.get("fieldValidation"));
  const sentManager = http.query.get("fieldManager");
  return {
    dryRun: http.query.getAll("dryRun").includes("All"),
    fieldManager: managerOf(http),
    fieldValidation,
    sent: {
      ...(sentManager ? { fieldManager: sentManager } : {}),
      ...(http.query.get("fieldValidation") ? { fieldValidation } : {}),
    },
  };
}

export function decodeCreate(http: HttpWrite): CreateRequest {
  const object = parseObjectBody(http.body);
  return {
    verb: "create",
    target: http.target,
    requester: http.request,
    object,
    options: writeOptions(http),
  };
}

export function decodeUpdate(http: HttpWrite): UpdateRequest {
  const object = parseObjectBody(http.body);
  return {
    verb: "update",
    target: http.target,
    requester: http.request,
    object,
    options: writeOptions(http),
  };
}

export function decodePatch(http: HttpWrite): PatchRequest {
  const patchType = patchTypeOf(http.target.type, http.body.contentType);
  if (patchType === "apply" && !http.query.get("fieldManager")) {
    throw badRequest(
      "PATCH requests of type apply require fieldManager: fieldManager: Required value: is required for apply patch",
    );
  }
  const force = http.query.get("force") === "true";
  if (force && patchType !== "apply")
    throw badRequest("force: Invalid value: true: may not be specified for non-apply patch");
  const patch = parsePatchBody(patchType, http.body.text);
  return {
    verb: "patch",
    target: http.target,
    requester: http.request,
    patchType,
    patch,
    force,
    options: writeOptions(http),
  };
}

export function decodeDelete(http: HttpWrite): DeleteRequest {
  const options = parseDeleteOptions(parseOptionalJsonBody(http.body), http.query);
  return { verb: "delete", target: http.target, requester: http.request, options };
}

export function decodeDeleteCollection(http: HttpWrite): DeleteCollectionRequest {
  const options = parseDeleteOptions(parseOptionalJsonBody(http.body), http.query);
  const filter = objectFilter(http.target.type, http.query);
  return { verb: "deleteCollection", target: http.target, requester: http.request, options, filter };
}
