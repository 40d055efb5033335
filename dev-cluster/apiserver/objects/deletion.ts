import { wireTime } from "../../../runtime/clock/wire-time.js";
import { badRequest, conflict } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { ResourceType } from "../resource-type.js";
import { finalizersOf, isBeingDeleted, meta, nameOf, stringField, uidOf } from "./object-meta.js";
import type { ObjectService } from "./object-service.js";

export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export const FOREGROUND_FINALIZER = "foregroundDeletion";
export const ORPHAN_FINALIZER = "orphan";
export const NAMESPACE_FINALIZER = "kubernetes";

/** Reads DeleteOptions from a request body (kubectl) merged with query parameters (client-node). */
export function parseDeleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  const source: JsonObject = isJsonObject(body) ? body : {};
  const policy = query.get("propagationPolicy") ?? source.propagationPolicy;
  const orphanDependents = query.get("orphanDependents") ?? source.orphanDependents;
  const grace = query.get("gracePeriodSeconds") ?? source.gracePeriodSeconds;
  const options: DeleteOptions = {};
  if (policy !== undefined && policy !== null) {
    if (policy !== "Background" && policy !== "Foreground" && policy !== "Orphan") {
      throw badRequest(
        `propagationPolicy must be one of Background, Foreground or Orphan, not ${JSON.stringify(policy)}`,
      );
    }
    options.propagationPolicy = policy;
  } else if (orphanDependents === true || orphanDependents === "true") {
    options.propagationPolicy = "Orphan";
  }
  if (grace !== undefined && grace !== null) {
    const seconds = Number(grace);
    if (!Number.isInteger(seconds) || seconds < 0)
      throw badRequest(`gracePeriodSeconds must be a non-negative integer`);
    options.gracePeriodSeconds = seconds;
  }
  if (isJsonObject(source.preconditions)) {
    const { uid, resourceVersion } = source.preconditions;
    options.preconditions = {
      ...(typeof uid === "string" ? { uid } : {}),
      ...(typeof resourceVersion === "string" ? { resourceVersion } : {}),
    };
  }
  const dryRun = query.getAll("dryRun");
  if (dryRun.includes("All") || (Array.isArray(source.dryRun) && source.dryRun.includes("All")))
    options.dryRun = true;
  return options;
}

/** Pods on a node end gracefully: the node's agent stops them, then deletes the pod with grace 0. */
function graceFor(type: ResourceType, object: JsonObject, options: DeleteOptions): number {
  if (type.group !== "" || type.plural !== "pods") return 0;
  const spec = isJsonObject(object.spec) ? object.spec : {};
  const status = isJsonObject(object.status) ? object.status : {};
  const phase = stringField(status, "phase");
  if (!stringField(spec, "nodeName") || phase === "Succeeded" || phase === "Failed") return 0;
  if (options.gracePeriodSeconds !== undefined) return options.gracePeriodSeconds;
  const specGrace = spec.terminationGracePeriodSeconds;
  return typeof specGrace === "number" ? specGrace : 30;
}

function finalizersToAdd(type: ResourceType, options: DeleteOptions): string[] {
  if (type.group === "" && type.plural === "namespaces") return [];
  if (options.propagationPolicy === "Foreground") return [FOREGROUND_FINALIZER];
  if (options.propagationPolicy === "Orphan") return [ORPHAN_FINALIZER];
  return [];
}

/**
 * Deletes an object as kube-apiserver does: with finalizers (its own, or the ones the
 * propagation policy adds, or a graceful pod) it only gets a deletionTimestamp and stays;
 * otherwise it is removed at once. Dependents are the garbage collector's job.
 * Returns the object as it now is (or was, when removed).
 */
export function deleteObject(
  service: ObjectService,
  type: ResourceType,
  namespace: string,
  name: string,
  options: DeleteOptions,
): JsonObject {
  const current = service.get(type, namespace, name);
  checkPreconditions(type, current, options);
  const key = service.key(type, namespace, name);
  const isNamespace = type.group === "" && type.plural === "namespaces";
  if (isBeingDeleted(current)) {
    const grace = graceFor(type, current, options);
    if (grace > 0 || finalizersOf(current).length > 0 || isNamespace) return current;
  }
  const updated = structuredClone(current);
  const metadata = meta(updated);
  const finalizers = [...new Set([...finalizersOf(current), ...finalizersToAdd(type, options)])];
  const grace = graceFor(type, current, options);
  const keep = finalizers.length > 0 || grace > 0 || isNamespace;
  if (!keep) {
    if (options.dryRun) return current;
    const [removed] = service.store.commit([{ type: "delete", key, object: current }]);
    return removed as JsonObject;
  }
  if (finalizers.length > 0) metadata.finalizers = finalizers;
  if (!isBeingDeleted(current)) {
    const deadline = new Date(service.now().getTime() + grace * 1000);
    metadata.deletionTimestamp = wireTime(deadline.getTime());
    metadata.deletionGracePeriodSeconds = grace;
  }
  if (isNamespace) {
    updated.status = { ...(isJsonObject(updated.status) ? updated.status : {}), phase: "Terminating" };
  }
  if (options.dryRun) return updated;
  const [stored] = service.store.commit([{ type: "put", key, object: updated }]);
  return stored as JsonObject;
}

function checkPreconditions(type: ResourceType, current: JsonObject, options: DeleteOptions): void {
  const { uid, resourceVersion } = options.preconditions ?? {};
  const subject = { group: type.group, resource: type.plural, name: nameOf(current) };
  if (uid !== undefined && uid !== uidOf(current)) {
    throw conflict(
      subject,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${uidOf(current)}`,
    );
  }
  if (resourceVersion !== undefined && resourceVersion !== meta(current).resourceVersion) {
    throw conflict(
      subject,
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${String(meta(current).resourceVersion)}`,
    );
  }
}
