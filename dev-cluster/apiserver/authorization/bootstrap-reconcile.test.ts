import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../json.js";
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from "./bootstrap-policy.js";
import { reconciledClusterRole, reconciledClusterRoleBinding } from "./bootstrap-reconcile.js";

function bootstrap(objects: JsonObject[], name: string): JsonObject {
  const found = objects.find((object) => (object.metadata as { name: string }).name === name);
  assert.ok(found, name);
  return found;
}

const discovery = bootstrap(bootstrapClusterRoles(), "system:discovery");
const view = bootstrap(bootstrapClusterRoles(), "view");
const discoveryBinding = bootstrap(bootstrapClusterRoleBindings(), "system:discovery");

describe("bootstrap policy reconciliation", () => {
  test("every bootstrap object carries the rbac-defaults label and the autoupdate annotation", () => {
    for (const object of [...bootstrapClusterRoles(), ...bootstrapClusterRoleBindings()]) {
      const metadata = object.metadata as {
        labels: Record<string, string>;
        annotations: Record<string, string>;
      };
      assert.equal(metadata.labels["kubernetes.io/bootstrapping"], "rbac-defaults");
      assert.equal(metadata.annotations["rbac.authorization.kubernetes.io/autoupdate"], "true");
    }
  });

  test("an unchanged role needs nothing", () => {
    assert.equal(reconciledClusterRole(structuredClone(discovery), discovery), undefined);
  });

  test("a removed permission comes back; what the user added stays", () => {
    const existing = structuredClone(discovery);
    existing.rules = [
      { verbs: ["get"], nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/healthz"] },
      { verbs: ["get"], nonResourceURLs: ["/custom"] },
    ];
    (existing.metadata as { labels: Record<string, string> }).labels = { team: "x" };
    const updated = reconciledClusterRole(existing, discovery);
    assert.ok(updated);
    const rules = updated.rules as { nonResourceURLs: string[] }[];
    assert.deepEqual(rules[1], { verbs: ["get"], nonResourceURLs: ["/custom"] });
    assert.deepEqual(
      rules.slice(2).map((rule) => rule.nonResourceURLs[0]),
      ["/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"],
    );
    assert.deepEqual((updated.metadata as { labels: Record<string, string> }).labels, {
      "kubernetes.io/bootstrapping": "rbac-defaults",
      team: "x",
    });
  });

  test("a role annotated autoupdate=false is left alone", () => {
    const existing = structuredClone(discovery);
    existing.rules = [];
    (existing.metadata as JsonObject).annotations = {
      "rbac.authorization.kubernetes.io/autoupdate": "false",
    };
    assert.equal(reconciledClusterRole(existing, discovery), undefined);
  });

  test("an aggregated role gets a missing selector back, keeping its own, and its rules are not touched", () => {
    const existing = structuredClone(view);
    existing.rules = [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }];
    existing.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { mine: "true" } }] };
    const updated = reconciledClusterRole(existing, view);
    assert.deepEqual(updated?.aggregationRule, {
      clusterRoleSelectors: [
        { matchLabels: { mine: "true" } },
        { matchLabels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } },
      ],
    });
    assert.deepEqual(updated?.rules, existing.rules);
  });

  test("a binding gets missing subjects back and keeps added ones; another roleRef means recreate", () => {
    const existing = structuredClone(discoveryBinding);
    existing.subjects = [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "ops" }];
    const updated = reconciledClusterRoleBinding(existing, discoveryBinding);
    assert.ok(updated && updated !== "recreate");
    assert.deepEqual(
      (updated.subjects as { name: string }[]).map((subject) => subject.name),
      ["ops", "system:authenticated"],
    );
    assert.equal(
      reconciledClusterRoleBinding(structuredClone(discoveryBinding), discoveryBinding),
      undefined,
    );
    const moved = { ...structuredClone(discoveryBinding), roleRef: { kind: "ClusterRole", name: "view" } };
    assert.equal(reconciledClusterRoleBinding(moved, discoveryBinding), "recreate");
  });
});
