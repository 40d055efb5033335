import { ApiError, badRequest, invalid, type StatusCause } from "../api-error.js";
import type { UserInfo } from "../auth/authenticator.js";
import { invalidField } from "../builtin/field-errors.js";
import { objectAt, stringAt } from "../builtin/json-read.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { decodeObject, type FieldValidation } from "../objects/decode.js";
import type { ResourceType } from "../resource-type.js";
import type { AuthorizationAttributes } from "./attributes.js";
import type { AuthorizationResult, Authorizer, SubjectRules } from "./authorizer.js";
import { type PolicyRule, policyRuleJson } from "./policy-rule.js";

export interface ReviewRequest {
  /** One of authorization.k8s.io's review resources. */
  type: ResourceType;
  /** The URL's namespace (LocalSubjectAccessReview only). */
  namespace: string;
  body: JsonValue;
  /** Who asks, after impersonation: the subject of the Self* reviews. */
  requester: UserInfo;
  fieldValidation: FieldValidation;
}

export interface ReviewOutcome {
  object: JsonObject;
  warnings: string[];
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesOf(spec: JsonObject, user: UserInfo): AuthorizationAttributes {
  const resource = objectAt(spec, "resourceAttributes");
  const base = { user, apiVersion: "", path: "", namespace: "", apiGroup: "", resource: "", subresource: "" };
  if (resource) {
    return {
      ...base,
      verb: stringAt(resource, "verb") ?? "",
      resourceRequest: true,
      namespace: stringAt(resource, "namespace") ?? "",
      apiGroup: stringAt(resource, "group") ?? "",
      apiVersion: stringAt(resource, "version") || "*",
      resource: stringAt(resource, "resource") ?? "",
      subresource: stringAt(resource, "subresource") ?? "",
      name: stringAt(resource, "name") ?? "",
    };
  }
  const nonResource = objectAt(spec, "nonResourceAttributes");
  return {
    ...base,
    verb: stringAt(nonResource, "verb") ?? "",
    resourceRequest: false,
    path: stringAt(nonResource, "path") ?? "",
    name: "",
  };
}

/** The user a SubjectAccessReview asks about: exactly the spec's, no groups added. */
function specUser(spec: JsonObject): UserInfo {
  const user: UserInfo = {
    username: stringAt(spec, "user") ?? "",
    uid: stringAt(spec, "uid") ?? "",
    groups: strings(spec.groups),
  };
  const extra = objectAt(spec, "extra");
  if (extra)
    user.extra = Object.fromEntries(Object.entries(extra).map(([key, value]) => [key, strings(value)]));
  return user;
}

/** ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function specCauses(spec: JsonObject, needsSubject: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const resource = spec.resourceAttributes;
  const nonResource = spec.nonResourceAttributes;
  const hasResource = isJsonObject(resource);
  const hasNonResource = isJsonObject(nonResource);
  if (hasResource && hasNonResource) {
    causes.push(
      invalidField(
        "spec.nonResourceAttributes",
        nonResource,
        "cannot be specified in combination with resourceAttributes",
      ),
    );
  }
  if (!hasResource && !hasNonResource) {
    causes.push(
      invalidField(
        "spec.resourceAttributes",
        null,
        "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      ),
    );
  }
  if (needsSubject && !stringAt(spec, "user") && strings(spec.groups).length === 0) {
    causes.push(invalidField("spec.user", "", "at least one of user or group must be specified"));
  }
  return causes;
}

/** Whether a JSON value decodes to Go's zero value (what an empty ObjectMeta holds). */
function isZero(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonObject(value) && Object.keys(value).length === 0;
}

/** Review objects carry no metadata but (for the local review) a namespace; managedFields are ignored. */
function metadataCauses(object: JsonObject, allowNamespace: boolean): StatusCause[] {
  const metadata = objectAt(object, "metadata") ?? {};
  const ignored = new Set(allowNamespace ? ["managedFields", "namespace"] : ["managedFields"]);
  const set = Object.entries(metadata).filter(([key, value]) => !ignored.has(key) && !isZero(value));
  if (set.length === 0) return [];
  const message = allowNamespace ? "must be empty except for namespace" : "must be empty";
  return [invalidField("metadata", metadata, message)];
}

function statusOf(result: AuthorizationResult): JsonObject {
  const status: JsonObject = { allowed: result.decision === "Allow" };
  if (result.decision === "Deny") status.denied = true;
  if (result.reason !== "") status.reason = result.reason;
  if (result.evaluationError) status.evaluationError = result.evaluationError;
  return status;
}

function resourceRuleJson(rule: PolicyRule): JsonObject {
  const { nonResourceURLs: _urls, ...json } = policyRuleJson(rule);
  return json;
}

function nonResourceRuleJson(rule: PolicyRule): JsonObject {
  const json: JsonObject = { verbs: [...rule.verbs] };
  if (rule.nonResourceURLs.length > 0) json.nonResourceURLs = [...rule.nonResourceURLs];
  return json;
}

function rulesStatus(rules: SubjectRules): JsonObject {
  const status: JsonObject = {
    resourceRules: rules.resourceRules.map(resourceRuleJson),
    nonResourceRules: rules.nonResourceRules.map(nonResourceRuleJson),
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError) status.evaluationError = rules.evaluationError;
  return status;
}

function throwIfInvalid(type: ResourceType, causes: StatusCause[]): void {
  if (causes.length > 0) throw invalid(type.kind, type.group, "", causes);
}

/** Sets (or checks) the local review's namespace from the URL, as the create handler does for any namespaced object. */
function placeInNamespace(object: JsonObject, namespace: string): void {
  const metadata = objectAt(object, "metadata") ?? {};
  const sent = stringAt(metadata, "namespace") ?? "";
  if (sent !== "" && sent !== namespace) {
    throw badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  object.metadata = { ...metadata, namespace };
}

/**
 * Answers a POST of one of authorization.k8s.io's reviews, as kube-apiserver's REST storage for
 * them does: validate, ask the authorizer, and return the object with its `status`. Nothing is
 * stored.
 */
export function createReview(authorizer: Authorizer, request: ReviewRequest): ReviewOutcome {
  const { type } = request;
  const { object, warnings } = decodeObject(type, request.body, request.fieldValidation);
  const spec = objectAt(object, "spec") ?? {};
  switch (type.plural) {
    case "subjectaccessreviews":
      throwIfInvalid(type, [...specCauses(spec, true), ...metadataCauses(object, false)]);
      object.status = statusOf(authorizer.authorize(attributesOf(spec, specUser(spec))));
      break;
    case "localsubjectaccessreviews": {
      // Only the namespaced path creates one (upstream serves no other route for it).
      if (request.namespace === "") {
        throw new ApiError(404, "NotFound", "the server could not find the requested resource");
      }
      placeInNamespace(object, request.namespace);
      const causes = [...specCauses(spec, true), ...metadataCauses(object, true)];
      const resource = objectAt(spec, "resourceAttributes");
      const resourceNamespace = stringAt(resource, "namespace") ?? "";
      if (resource && resourceNamespace !== request.namespace) {
        causes.push(
          invalidField(
            "spec.resourceAttributes.namespace",
            resourceNamespace,
            "must match metadata.namespace",
          ),
        );
      }
      if (spec.nonResourceAttributes !== undefined && spec.nonResourceAttributes !== null) {
        causes.push(
          invalidField(
            "spec.nonResourceAttributes",
            spec.nonResourceAttributes,
            "disallowed on this kind of request",
          ),
        );
      }
      throwIfInvalid(type, causes);
      object.status = statusOf(authorizer.authorize(attributesOf(spec, specUser(spec))));
      break;
    }
    case "selfsubjectaccessreviews":
      throwIfInvalid(type, [...specCauses(spec, false), ...metadataCauses(object, false)]);
      object.status = statusOf(authorizer.authorize(attributesOf(spec, request.requester)));
      break;
    case "selfsubjectrulesreviews": {
      const namespace = stringAt(spec, "namespace") ?? "";
      if (namespace === "") throw badRequest("no namespace on request");
      // Upstream answers with a fresh object: the spec is not echoed.
      return {
        object: {
          kind: type.kind,
          apiVersion: object.apiVersion ?? null,
          metadata: { creationTimestamp: null },
          spec: {},
          status: rulesStatus(authorizer.rulesFor(request.requester, namespace)),
        },
        warnings,
      };
    }
    default:
      throw new ApiError(
        405,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
      );
  }
  object.metadata = { ...(objectAt(object, "metadata") ?? {}), creationTimestamp: null };
  return { object, warnings };
}
