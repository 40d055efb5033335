import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { groupVersion } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import type { AdmissionAttributes } from "./admission-attributes.js";

const REVIEW_API_VERSION = "admission.k8s.io/v1";

/** What a webhook answered, once checked. */
export interface AdmissionResponse {
  allowed: boolean;
  /** The decoded JSON patch of a mutating webhook, if it sent one. */
  patch: JsonValue | undefined;
  /** The metav1.Status a denial carries. */
  status: JsonObject | undefined;
  warnings: string[];
}

/** The object as a client of `type`'s version sees it (conversion of an unchanged schema: the apiVersion). */
export function inVersion(object: JsonObject | undefined, type: ResourceType): JsonObject | null {
  if (!object) return null;
  return { ...structuredClone(object), apiVersion: groupVersion(type) };
}

function userInfo(attributes: AdmissionAttributes): JsonObject {
  const { user } = attributes;
  const info: JsonObject = { username: user.username, groups: [...user.groups] };
  if (user.uid) info.uid = user.uid;
  if (user.extra && Object.keys(user.extra).length > 0) info.extra = structuredClone(user.extra);
  return info;
}

/**
 * The AdmissionReview v1 sent to a webhook that is called with `type`'s version of the
 * resource (the request's own, or an equivalent one under matchPolicy Equivalent).
 */
export function admissionReview(
  uid: string,
  attributes: AdmissionAttributes,
  type: ResourceType,
): JsonObject {
  const requested = attributes.type;
  return {
    apiVersion: REVIEW_API_VERSION,
    kind: "AdmissionReview",
    request: {
      uid,
      kind: { group: type.group, version: type.version, kind: type.kind },
      resource: { group: type.group, version: type.version, resource: type.plural },
      ...(attributes.subresource ? { subResource: attributes.subresource } : {}),
      requestKind: { group: requested.group, version: requested.version, kind: requested.kind },
      requestResource: { group: requested.group, version: requested.version, resource: requested.plural },
      ...(attributes.subresource ? { requestSubResource: attributes.subresource } : {}),
      name: attributes.name,
      namespace: attributes.namespace,
      operation: attributes.operation,
      userInfo: userInfo(attributes),
      object: inVersion(attributes.object, type),
      oldObject: inVersion(attributes.oldObject, type),
      dryRun: attributes.dryRun,
      options: attributes.options,
    },
  };
}

function gvkText(apiVersion: JsonValue | undefined, kind: JsonValue | undefined): string {
  const version = typeof apiVersion === "string" ? apiVersion : "";
  const [group, ver] = version.includes("/") ? version.split("/", 2) : ["", version];
  return `${group}/${ver}, Kind=${typeof kind === "string" ? kind : ""}`;
}

function decodePatch(patch: string): JsonValue {
  try {
    return JSON.parse(Buffer.from(patch, "base64").toString("utf8")) as JsonValue;
  } catch (error) {
    throw new Error(`received undecodable patch in webhook response: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Checks a webhook's answer as apiserver's VerifyAdmissionResponse does (an AdmissionReview v1
 * with our uid; a patch only from mutating webhooks, always with patchType JSONPatch). Throws an
 * Error whose message says what is wrong: the caller treats it as a failure to call the webhook.
 */
export function readAdmissionResponse(body: JsonValue, uid: string, mutating: boolean): AdmissionResponse {
  if (!isJsonObject(body))
    throw new Error("received invalid webhook response: the body is not a JSON object");
  const invalid = (why: string) => new Error(`received invalid webhook response: ${why}`);
  if (body.apiVersion !== REVIEW_API_VERSION || body.kind !== "AdmissionReview") {
    throw invalid(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(body.apiVersion, body.kind)}`,
    );
  }
  const response = body.response;
  if (!isJsonObject(response)) throw invalid("webhook response was absent");
  if (response.uid !== uid)
    throw invalid(`expected response.uid="${uid}", got "${String(response.uid ?? "")}"`);
  const patch = typeof response.patch === "string" && response.patch !== "" ? response.patch : undefined;
  const patchType = response.patchType;
  if (mutating) {
    if (patch && patchType === undefined)
      throw invalid("webhook returned response.patch but not response.patchType");
    if (!patch && patchType !== undefined && patchType !== null)
      throw invalid("webhook returned response.patchType but not response.patch");
    if (patch && patchType !== "JSONPatch") throw new Error(`unsupported patch type "${String(patchType)}"`);
  } else {
    if (patch) throw invalid("validating webhook may not return response.patch");
    if (patchType !== undefined && patchType !== null)
      throw invalid("validating webhook may not return response.patchType");
  }
  const warnings = Array.isArray(response.warnings)
    ? response.warnings.filter((w): w is string => typeof w === "string")
    : [];
  return {
    allowed: response.allowed === true,
    patch: patch ? decodePatch(patch) : undefined,
    status: isJsonObject(response.status) ? response.status : undefined,
    warnings,
  };
}
