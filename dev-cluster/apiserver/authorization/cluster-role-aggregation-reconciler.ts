import type { Logger } from "pino";
import type { ReconcileResult } from "../../../runtime/index.js";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { objectsAt } from "../builtin/json-read.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { labelsOf, nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { labelSelectorFromObject } from "../selectors/label-selector.js";
import { policyRuleJson, policyRulesOf } from "./policy-rule.js";
import { RBAC_GROUP } from "./rbac-objects.js";

export const CLUSTER_ROLES = `${RBAC_GROUP}/clusterroles`;
const FIELD_MANAGER = "clusterrole-aggregation-controller";

export function isAggregated(role: JsonObject): boolean {
  return isJsonObject(role.aggregationRule);
}

/** A role's rules in one canonical JSON form, so equal rules compare equal however they were written. */
function canonicalRules(role: JsonObject): JsonObject[] {
  return policyRulesOf(role).map(policyRuleJson);
}

export interface ClusterRoleAggregationReconcilerDeps {
  service: ObjectService;
  log: Logger;
}

/**
 * One aggregated ClusterRole, from the store: its `rules` become the union of the rules of every
 * other ClusterRole whose labels a selector matches (selectors in order, roles by name,
 * duplicates once), written only when that differs.
 */
export class ClusterRoleAggregationReconciler {
  readonly #deps: ClusterRoleAggregationReconcilerDeps;

  constructor(deps: ClusterRoleAggregationReconcilerDeps) {
    this.#deps = deps;
  }

  reconcile(name: string): ReconcileResult {
    const { service } = this.#deps;
    const role = service.store.get({ resource: CLUSTER_ROLES, namespace: "", name });
    if (!role || !isAggregated(role)) return {};
    const rules = this.#aggregatedRules(role);
    if (jsonEqual(canonicalRules(role), rules)) return {};
    const type = service.registry.find(RBAC_GROUP, "v1", "clusterroles");
    if (!type) throw new Error(`clusterroles.${RBAC_GROUP} is not registered`);
    // The stored resourceVersion makes this a precondition: a concurrent change wins, and its event requeues.
    service.update(type, "", name, { ...role, rules }, { fieldManager: FIELD_MANAGER });
    return {};
  }

  #aggregatedRules(role: JsonObject): JsonObject[] {
    const name = nameOf(role);
    const candidates = this.#deps.service.store.list(CLUSTER_ROLES);
    const rules: JsonObject[] = [];
    for (const selector of objectsAt(role, "aggregationRule", "clusterRoleSelectors")) {
      let matches: (labels: Record<string, string>) => boolean;
      try {
        matches = labelSelectorFromObject(selector);
      } catch (error) {
        this.#deps.log.warn({ err: error, clusterRole: name }, "skipping an invalid cluster role selector");
        continue;
      }
      for (const candidate of candidates) {
        if (nameOf(candidate) === name || !matches(labelsOf(candidate))) continue;
        for (const rule of canonicalRules(candidate)) {
          if (!rules.some((present) => jsonEqual(present, rule))) rules.push(rule);
        }
      }
    }
    return rules;
  }
}
