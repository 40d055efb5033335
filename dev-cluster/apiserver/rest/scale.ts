import { JSONPath } from "jsonpath-plus";
import { badRequest, conflict } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { meta, nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { applyPatch, parsePatchBody, patchTypeOf } from "../objects/patch-body.js";
import type { RequestTarget } from "../objects/request-target.js";
import type { ResourceType, ScaleSubresource } from "../resource-type.js";
import type { RequestBody } from "./request-body.js";

function scaleOf(target: RequestTarget): ScaleSubresource {
  const scale = target.type.scaleSubresource;
  if (!scale) throw badRequest(`${target.type.plural} have no scale subresource`);
  return scale;
}

function readPath(object: JsonObject, path: string): JsonValue | undefined {
  const [value] = JSONPath({ path: `$${path}`, json: object, wrap: true }) as JsonValue[];
  return value;
}

/** Writes `value` at a simple dotted path such as `.spec.replicas`, creating objects on the way. */
function writePath(object: JsonObject, path: string, value: JsonValue): void {
  const parts = path.replace(/^\./, "").split(".");
  let node: JsonObject = object;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node[part] = isJsonObject(next) ? next : {};
    node = node[part] as JsonObject;
  }
  node[parts[parts.length - 1] as string] = value;
}

function toScale(object: JsonObject, scale: ScaleSubresource): JsonObject {
  const metadata = meta(object);
  const selector = scale.labelSelectorPath ? readPath(object, scale.labelSelectorPath) : undefined;
  const status: JsonObject = { replicas: Number(readPath(object, scale.statusReplicasPath) ?? 0) };
  if (typeof selector === "string") status.selector = selector;
  else if (isJsonObject(selector) && isJsonObject(selector.matchLabels)) {
    status.selector = Object.entries(selector.matchLabels)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(",");
  }
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: metadata.name ?? null,
      namespace: metadata.namespace ?? null,
      uid: metadata.uid ?? null,
      resourceVersion: metadata.resourceVersion ?? null,
      creationTimestamp: metadata.creationTimestamp ?? null,
    },
    spec: { replicas: Number(readPath(object, scale.specReplicasPath) ?? 0) },
    status,
  };
}

export function getScale(service: ObjectService, target: RequestTarget): JsonObject {
  return toScale(service.get(target.type, target.namespace, target.name ?? ""), scaleOf(target));
}

/** PUT scale: sets the replicas of the object (with the Scale's resourceVersion as precondition). */
export function updateScale(service: ObjectService, target: RequestTarget, body: JsonValue): JsonObject {
  const scale = scaleOf(target);
  if (!isJsonObject(body) || !isJsonObject(body.spec) || typeof body.spec.replicas !== "number") {
    throw badRequest("a Scale must have spec.replicas");
  }
  const current = service.get(target.type, target.namespace, target.name ?? "");
  const sentVersion = isJsonObject(body.metadata) ? body.metadata.resourceVersion : undefined;
  if (
    typeof sentVersion === "string" &&
    sentVersion !== "" &&
    sentVersion !== meta(current).resourceVersion
  ) {
    throw conflict({ group: target.type.group, resource: target.type.plural, name: nameOf(current) });
  }
  const updated = structuredClone(current);
  writePath(updated, scale.specReplicasPath, body.spec.replicas);
  const outcome = service.update(target.type, target.namespace, target.name ?? "", updated, {
    fieldManager: "scale",
  });
  return toScale(outcome.object, scale);
}

/** The Scale kind as the patch machinery sees it: built-in, so every patch type is accepted. */
const SCALE_TYPE = { builtin: true, fieldSemantics: () => undefined } as unknown as ResourceType;

/** PATCH scale (what `kubectl scale` sends): the patch applies to the Scale, whose replicas then go to the object. */
export function patchScale(service: ObjectService, target: RequestTarget, body: RequestBody): JsonObject {
  const patchType = patchTypeOf(SCALE_TYPE, body.contentType);
  if (patchType === "apply") throw badRequest("server-side apply is not supported on the scale subresource");
  const patched = applyPatch(
    SCALE_TYPE,
    getScale(service, target),
    patchType,
    parsePatchBody(patchType, body.text),
  );
  return updateScale(service, target, patched);
}
