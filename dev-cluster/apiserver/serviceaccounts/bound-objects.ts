import { badRequest, conflict } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { nameOf, stringField, uidOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ObjectRef, TokenSubject } from "./token-claims.js";

type BoundObjects = Pick<TokenSubject, "pod" | "secret" | "node">;

function getObject(service: ObjectService, plural: string, namespace: string, name: string): JsonObject {
  const type = service.registry.find("", "v1", plural);
  if (!type) throw new Error(`the ${plural} resource is not registered`);
  return service.get(type, namespace, name);
}

function refOf(object: JsonObject): ObjectRef {
  return { name: nameOf(object), uid: uidOf(object) };
}

/** apimachinery's GroupVersionKind.String() of a reference's apiVersion and kind. */
function groupVersionKind(apiVersion: string, kind: string): { group: string; text: string } {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return { group, text: `${group}/${version}, Kind=${kind}` };
}

/** The node a pod runs on, for the informational `node` claim; just the name when the Node is gone. */
function nodeOfPod(service: ObjectService, pod: JsonObject): ObjectRef | undefined {
  const nodeName = stringField(isJsonObject(pod.spec) ? pod.spec : undefined, "nodeName");
  if (!nodeName) return undefined;
  const type = service.registry.find("", "v1", "nodes");
  const node = type && service.find(type, "", nodeName);
  return node ? refOf(node) : { name: nodeName, uid: "" };
}

/**
 * Resolves `spec.boundObjectRef` of a TokenRequest as kube's TokenREST does: a Pod (that runs as
 * this service account), a Secret or a Node, which must exist and, when the reference names a
 * uid, have that uid. Throws 404, 400 or 409 with kube's messages.
 */
export function resolveBoundObject(
  service: ObjectService,
  namespace: string,
  serviceAccountName: string,
  ref: JsonObject,
): BoundObjects {
  const kind = stringField(ref, "kind") ?? "";
  const name = stringField(ref, "name") ?? "";
  const gvk = groupVersionKind(stringField(ref, "apiVersion") ?? "", kind);
  let bound: BoundObjects;
  let object: JsonObject;
  if (gvk.group === "" && kind === "Pod") {
    object = getObject(service, "pods", namespace, name);
    const spec = isJsonObject(object.spec) ? object.spec : undefined;
    if (stringField(spec, "serviceAccountName") !== serviceAccountName) {
      throw badRequest(
        `cannot bind token for serviceaccount "${serviceAccountName}" to pod running with different serviceaccount name.`,
      );
    }
    const node = nodeOfPod(service, object);
    bound = node ? { pod: refOf(object), node } : { pod: refOf(object) };
  } else if (gvk.group === "" && kind === "Secret") {
    object = getObject(service, "secrets", namespace, name);
    bound = { secret: refOf(object) };
  } else if (gvk.group === "" && kind === "Node") {
    object = getObject(service, "nodes", "", name);
    bound = { node: refOf(object) };
  } else {
    throw badRequest(`cannot bind token to object of type ${gvk.text}`);
  }
  const uid = stringField(ref, "uid") ?? "";
  if (uid !== "" && uid !== uidOf(object)) {
    throw conflict(
      { group: gvk.group, resource: kind, name },
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return bound;
}
