import type { Logger } from "pino";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { objectsAt } from "../builtin/json-read.js";
import { KeyQueue } from "../controllers/key-queue.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { labelsOf, nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { labelSelectorFromObject } from "../selectors/label-selector.js";
import { policyRuleJson, policyRulesOf } from "./policy-rule.js";
import { RBAC_GROUP } from "./rbac-objects.js";

const CLUSTER_ROLES = `${RBAC_GROUP}/clusterroles`;
const FIELD_MANAGER = "clusterrole-aggregation-controller";

function isAggregated(role: JsonObject): boolean {
  return isJsonObject(role.aggregationRule);
}

/** A role's rules in one canonical JSON form, so equal rules compare equal however they were written. */
function canonicalRules(role: JsonObject): JsonObject[] {
  return policyRulesOf(role).map(policyRuleJson);
}

/**
 * kube-controller-manager's clusterrole-aggregation controller, in the API server's process: a
 * ClusterRole with `aggregationRule.clusterRoleSelectors` gets as its `rules` the union of the
 * rules of every other ClusterRole whose labels a selector matches (selectors in order, roles
 * by name, duplicates once), and is rewritten whenever a ClusterRole changes what that gives.
 */
export class ClusterRoleAggregation {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #log: Logger;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    this.#log = log.child({ controller: "clusterrole-aggregation" });
    this.#queue = new KeyQueue((name) => this.#reconcile(name), this.#log);
    // Any ClusterRole's change (its labels, its rules, its going) may change any aggregate.
    this.#stopWatching = service.store.onChange((event) => {
      if (event.resource === CLUSTER_ROLES) this.#enqueueAggregated();
    });
    this.#enqueueAggregated();
  }

  stop(): void {
    this.#stopWatching();
    this.#queue.stop();
  }

  #enqueueAggregated(): void {
    for (const role of this.#service.store.list(CLUSTER_ROLES)) {
      if (isAggregated(role)) this.#queue.add(nameOf(role));
    }
  }

  #reconcile(name: string): void {
    const role = this.#service.store.get({ resource: CLUSTER_ROLES, namespace: "", name });
    if (!role || !isAggregated(role)) return;
    const rules = this.#aggregatedRules(role);
    if (jsonEqual(canonicalRules(role), rules)) return;
    const type = this.#service.registry.find(RBAC_GROUP, "v1", "clusterroles");
    if (!type) throw new Error(`clusterroles.${RBAC_GROUP} is not registered`);
    // The stored resourceVersion makes this a precondition: a concurrent change wins, and its event requeues.
    this.#service.update(type, "", name, { ...role, rules }, { fieldManager: FIELD_MANAGER });
  }

  #aggregatedRules(role: JsonObject): JsonObject[] {
    const name = nameOf(role);
    const candidates = this.#service.store.list(CLUSTER_ROLES);
    const rules: JsonObject[] = [];
    for (const selector of objectsAt(role, "aggregationRule", "clusterRoleSelectors")) {
      let matches: (labels: Record<string, string>) => boolean;
      try {
        matches = labelSelectorFromObject(selector);
      } catch (error) {
        this.#log.warn({ err: error, clusterRole: name }, "skipping an invalid cluster role selector");
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
