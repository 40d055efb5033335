import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { requestAttributes } from "./attributes.js";
import { type PolicyRule, policyRuleOf, ruleAllows } from "./policy-rule.js";

const user = { username: "u", uid: "", groups: [] };

function rule(fields: Partial<PolicyRule>): PolicyRule {
  return { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...fields };
}

const readPods = rule({ verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["pods"] });
const podsEverything = rule({ verbs: ["*"], apiGroups: [""], resources: ["pods", "pods/*"] });
const anyStatus = rule({ verbs: ["update"], apiGroups: ["*"], resources: ["*/status"] });
const oneConfigMap = rule({
  verbs: ["get", "list", "watch", "update", "delete", "create"],
  apiGroups: [""],
  resources: ["configmaps"],
  resourceNames: ["settings"],
});
const everything = rule({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] });
const metrics = rule({ verbs: ["get"], nonResourceURLs: ["/metrics", "/logs/*"] });

/** [rule, method, url, allowed] */
const cases: [string, PolicyRule, string, string, boolean][] = [
  ["verb and resource match", readPods, "GET", "/api/v1/namespaces/a/pods", true],
  ["watch is its own verb", readPods, "GET", "/api/v1/namespaces/a/pods?watch=true", true],
  ["another verb", readPods, "DELETE", "/api/v1/namespaces/a/pods/x", false],
  ["another group", readPods, "GET", "/apis/apps/v1/namespaces/a/deployments", false],
  ["a subresource needs its own entry", readPods, "GET", "/api/v1/namespaces/a/pods/x/log", false],
  ["pods/* is not a subresource wildcard", podsEverything, "GET", "/api/v1/namespaces/a/pods/x/log", false],
  [
    "*/status matches any resource's status",
    anyStatus,
    "PUT",
    "/apis/apps/v1/namespaces/a/deployments/d/status",
    true,
  ],
  [
    "*/status does not match the resource itself",
    anyStatus,
    "PUT",
    "/apis/apps/v1/namespaces/a/deployments/d",
    false,
  ],
  [
    "*/status does not match another subresource",
    anyStatus,
    "PUT",
    "/apis/apps/v1/namespaces/a/deployments/d/scale",
    false,
  ],
  ["* matches subresources", everything, "POST", "/api/v1/namespaces/a/serviceaccounts/s/token", true],
  ["resourceNames: the named object", oneConfigMap, "GET", "/api/v1/namespaces/a/configmaps/settings", true],
  ["resourceNames: another object", oneConfigMap, "GET", "/api/v1/namespaces/a/configmaps/other", false],
  ["resourceNames: not an unnamed list", oneConfigMap, "GET", "/api/v1/namespaces/a/configmaps", false],
  [
    "resourceNames: a list pinned to the name by fieldSelector",
    oneConfigMap,
    "GET",
    "/api/v1/namespaces/a/configmaps?fieldSelector=metadata.name%3Dsettings&watch=true",
    true,
  ],
  ["resourceNames: not a create", oneConfigMap, "POST", "/api/v1/namespaces/a/configmaps", false],
  ["resourceNames: not deletecollection", oneConfigMap, "DELETE", "/api/v1/namespaces/a/configmaps", false],
  ["non-resource URL, exact", metrics, "GET", "/metrics", true],
  ["non-resource URL, prefix with *", metrics, "GET", "/logs/kube/x.log", true],
  ["non-resource URL, prefix needs the slash", metrics, "GET", "/logsx", false],
  ["non-resource URL, other verb", metrics, "POST", "/metrics", false],
  ["resource rules never match paths", everything, "GET", "/metrics", false],
  ["URL rules never match resources", metrics, "GET", "/api/v1/namespaces/a/pods", false],
];

describe("RBAC rule matching", () => {
  for (const [name, policy, method, url, allowed] of cases) {
    test(name, () => assert.equal(ruleAllows(requestAttributes(method, url, user), policy), allowed));
  }

  test("stored rules read with missing lists as empty", () => {
    assert.deepEqual(policyRuleOf({ verbs: ["get"], nonResourceURLs: ["/x"] }), {
      verbs: ["get"],
      apiGroups: [],
      resources: [],
      resourceNames: [],
      nonResourceURLs: ["/x"],
    });
  });
});
