import type { Logger } from "pino";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { objectAt, objectsAt, stringAt } from "../builtin/json-read.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { deleteObject } from "../objects/deletion.js";
import { meta, nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ResourceType } from "../resource-type.js";
import {
  AUTOUPDATE_ANNOTATION,
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
} from "./bootstrap-policy.js";
import { policyRuleJson, policyRulesOf } from "./policy-rule.js";
import { RBAC_GROUP } from "./rbac-objects.js";
import { covers } from "./rule-coverage.js";

const FIELD_MANAGER = "kube-apiserver";

function stringMap(value: JsonValue | undefined): Record<string, JsonValue> {
  return isJsonObject(value) ? value : {};
}

/** Labels and annotations the bootstrap object has and the stored one lacks are added; the stored values win. */
function mergeMetadata(updated: JsonObject, expected: JsonObject): void {
  const metadata = meta(updated);
  const wanted = meta(expected);
  for (const field of ["labels", "annotations"]) {
    metadata[field] = { ...stringMap(wanted[field]), ...stringMap(metadata[field]) };
  }
}

function isProtected(object: JsonObject): boolean {
  return stringAt(object, "metadata", "annotations", AUTOUPDATE_ANNOTATION) === "false";
}

/**
 * rbac's computeReconciledRole in union mode: missing labels and annotations, missing
 * permissions (added as broken-down rules) and missing aggregation selectors are added;
 * nothing the user added is removed. Undefined when nothing changes.
 */
export function reconciledClusterRole(existing: JsonObject, expected: JsonObject): JsonObject | undefined {
  if (isProtected(existing)) return undefined;
  const updated = structuredClone(existing);
  mergeMetadata(updated, expected);
  const { missing } = covers(policyRulesOf(existing), policyRulesOf(expected));
  if (missing.length > 0) {
    const rules = Array.isArray(existing.rules) ? existing.rules : [];
    updated.rules = [...rules, ...missing.map(policyRuleJson)];
  }
  const wantedRule = objectAt(expected, "aggregationRule");
  if (wantedRule) {
    const present = objectsAt(existing, "aggregationRule", "clusterRoleSelectors");
    const wanted = objectsAt(wantedRule, "clusterRoleSelectors");
    const absent = wanted.filter((selector) => !present.some((candidate) => jsonEqual(candidate, selector)));
    if (absent.length > 0) updated.aggregationRule = { clusterRoleSelectors: [...present, ...absent] };
  }
  return jsonEqual(updated, existing) ? undefined : updated;
}

function sameSubject(a: JsonObject, b: JsonObject): boolean {
  return ["kind", "name", "namespace"].every(
    (field) => (stringAt(a, field) ?? "") === (stringAt(b, field) ?? ""),
  );
}

/**
 * rbac's computeReconciledRoleBinding in union mode: missing subjects, labels and annotations
 * are added. "recreate" when the role it refers to differs (a roleRef cannot be changed).
 */
export function reconciledClusterRoleBinding(
  existing: JsonObject,
  expected: JsonObject,
): JsonObject | "recreate" | undefined {
  if (isProtected(existing)) return undefined;
  if (!jsonEqual(objectAt(existing, "roleRef") ?? {}, objectAt(expected, "roleRef") ?? {})) return "recreate";
  const updated = structuredClone(existing);
  mergeMetadata(updated, expected);
  const present = objectsAt(existing, "subjects");
  const absent = objectsAt(expected, "subjects").filter((s) => !present.some((p) => sameSubject(p, s)));
  if (absent.length > 0) updated.subjects = [...present, ...absent];
  return jsonEqual(updated, existing) ? undefined : updated;
}

function typeOf(service: ObjectService, plural: string): ResourceType {
  const type = service.registry.find(RBAC_GROUP, "v1", plural);
  if (!type) throw new Error(`${plural}.${RBAC_GROUP} is not registered`);
  return type;
}

function ensure(
  service: ObjectService,
  type: ResourceType,
  expected: JsonObject,
  reconcile: (existing: JsonObject, expected: JsonObject) => JsonObject | "recreate" | undefined,
): void {
  const name = nameOf(expected);
  const options = { fieldManager: FIELD_MANAGER };
  const existing = service.find(type, "", name);
  if (!existing) {
    service.create(type, "", expected, options);
    return;
  }
  const outcome = reconcile(existing, expected);
  if (outcome === "recreate") {
    deleteObject(service, type, "", name, {});
    service.create(type, "", expected, options);
  } else if (outcome) {
    service.update(type, "", name, outcome, options);
  }
}

/**
 * Creates the bootstrap ClusterRoles and ClusterRoleBindings, and on later starts reconciles
 * them as kube-apiserver does: what is missing comes back, what users added stays, and an
 * object annotated `rbac.authorization.kubernetes.io/autoupdate: "false"` is left alone.
 */
export function ensureBootstrapPolicy(service: ObjectService, log: Logger): void {
  const roles = typeOf(service, "clusterroles");
  const bindings = typeOf(service, "clusterrolebindings");
  const work: [ResourceType, JsonObject[], typeof reconciledClusterRoleBinding][] = [
    [roles, bootstrapClusterRoles(), reconciledClusterRole],
    [bindings, bootstrapClusterRoleBindings(), reconciledClusterRoleBinding],
  ];
  for (const [type, objects, reconcile] of work) {
    for (const expected of objects) {
      try {
        ensure(service, type, expected, reconcile);
      } catch (error) {
        log.error(
          { err: error, kind: type.kind, name: nameOf(expected) },
          "cannot reconcile bootstrap RBAC policy",
        );
      }
    }
  }
}
