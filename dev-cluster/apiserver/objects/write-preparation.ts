import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { conflict, invalid } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { finalizersOf, isBeingDeleted, meta, nameOf, preserveSystemMetadata } from "./object-meta.js";

/** The parts of an object whose change bumps `metadata.generation`: everything but metadata (and status, when it is a subresource). */
function specPart(type: ResourceType, object: JsonObject): JsonObject {
  const { metadata: _metadata, status, ...rest } = object;
  return type.statusSubresource || status === undefined ? rest : { ...rest, status };
}

/** Throws 409 Conflict when the client's resourceVersion is set and stale. */
export function checkResourceVersion(type: ResourceType, updated: JsonObject, old: JsonObject): void {
  const sent = meta(updated).resourceVersion;
  if (sent === undefined || sent === "" || sent === null) {
    if (!type.builtin) {
      // Custom resources do not allow unconditional updates (apiextensions strategy).
      throw invalid(type.kind, type.group, nameOf(old), [
        {
          reason: "FieldValueInvalid",
          message: "Invalid value: 0x0: must be specified for an update",
          field: "metadata.resourceVersion",
        },
      ]);
    }
    return;
  }
  if (sent !== meta(old).resourceVersion) {
    throw conflict({ group: type.group, resource: type.plural, name: nameOf(old) });
  }
}

/**
 * Builds the object an update stores: system metadata from the old object, the status split
 * of the status subresource, the finalizer rules of an object being deleted, and the
 * generation bump. `subresource` is "status" for writes to /status.
 */
export function prepareUpdate(
  type: ResourceType,
  updated: JsonObject,
  old: JsonObject,
  subresource: string | undefined,
): JsonObject {
  let result = updated;
  if (subresource === "status") {
    // Writes to /status change the status only: everything else comes from the stored object.
    result = structuredClone(old);
    if (updated.status === undefined) delete result.status;
    else result.status = updated.status;
  } else if (type.statusSubresource) {
    if (old.status === undefined) delete result.status;
    else result.status = old.status;
  }
  if (subresource !== "status") {
    preserveSystemMetadata(result, old);
  }
  checkFinalizersOfDeletedObject(type, result, old);
  const generation = meta(old).generation;
  if (typeof generation === "number") {
    meta(result).generation = jsonEqual(specPart(type, result), specPart(type, old))
      ? generation
      : generation + 1;
  }
  return result;
}

function checkFinalizersOfDeletedObject(type: ResourceType, updated: JsonObject, old: JsonObject): void {
  if (!isBeingDeleted(old)) return;
  const before = new Set(finalizersOf(old));
  const added = finalizersOf(updated).filter((f) => !before.has(f));
  if (added.length > 0) {
    throw invalid(type.kind, type.group, nameOf(old), [
      {
        reason: "FieldValueForbidden",
        message: "Forbidden: no new finalizers can be added if the object is being deleted",
        field: "metadata.finalizers",
      },
    ]);
  }
}

/** Whether an update changes nothing but bookkeeping (then nothing is written, no RV bump). */
export function isNoOp(updated: JsonObject, old: JsonObject): boolean {
  const strip = (object: JsonObject): JsonObject => {
    const copy = { ...object };
    if (isJsonObject(copy.metadata)) {
      const { managedFields: _m, resourceVersion: _r, ...metadata } = copy.metadata;
      copy.metadata = metadata;
    }
    return copy;
  };
  return jsonEqual(strip(updated), strip(old));
}

/**
 * An object being deleted whose last finalizer is gone is removed rather than updated, unless it
 * is still in its grace period (a pod its node is stopping: the node deletes it with grace 0).
 */
export function isReadyToRemove(object: JsonObject): boolean {
  const grace = meta(object).deletionGracePeriodSeconds;
  return (
    isBeingDeleted(object) && finalizersOf(object).length === 0 && (typeof grace !== "number" || grace === 0)
  );
}
