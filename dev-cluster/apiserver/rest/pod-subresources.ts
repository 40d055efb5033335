import { wireTime } from "../../../runtime/clock/wire-time.js";
import { badRequest, conflict } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { meta, stringField } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { RequestTarget } from "../objects/request-target.js";

/**
 * POST pods/<name>/binding: what a scheduler calls to place a pod. Sets spec.nodeName and the
 * PodScheduled condition in one write; a pod that is already bound answers 409.
 */
export function bindPod(service: ObjectService, target: RequestTarget, body: JsonValue): JsonObject {
  if (!isJsonObject(body) || !isJsonObject(body.target)) throw badRequest("a Binding must have a target");
  const nodeName = stringField(body.target, "name");
  if (!nodeName) throw badRequest("Binding.target.name: Required value");
  const name = target.name ?? "";
  const pod = service.get(target.type, target.namespace, name);
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const subject = { group: "", resource: "pods", name };
  // A scheduler names the pod it placed: a pod recreated under the same name is not that pod.
  const expectedUid = isJsonObject(body.metadata) ? stringField(body.metadata, "uid") : undefined;
  if (expectedUid && expectedUid !== stringField(meta(pod), "uid")) {
    throw conflict(
      subject,
      `Precondition failed: UID in precondition: ${expectedUid}, UID in object meta: ${stringField(meta(pod), "uid") ?? ""}`,
    );
  }
  if (stringField(spec, "nodeName")) {
    throw conflict(subject, `pod ${name} is already assigned to node "${stringField(spec, "nodeName")}"`);
  }
  if (meta(pod).deletionTimestamp)
    throw conflict(subject, `pod ${name} is being deleted, cannot be assigned to a host`);
  const bound = structuredClone(pod);
  bound.spec = { ...spec, nodeName };
  const status = isJsonObject(bound.status) ? bound.status : {};
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []).filter(
    (c) => !(isJsonObject(c) && c.type === "PodScheduled"),
  );
  conditions.push({
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: wireTime(service.now().getTime()),
  });
  bound.status = { ...status, conditions };
  // A binding is a write of the scheduler, not of the pod's spec: it goes around the immutable-spec check.
  const key = service.key(target.type, target.namespace, name);
  service.store.commit([{ type: "put", key, object: bound }]);
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
}
