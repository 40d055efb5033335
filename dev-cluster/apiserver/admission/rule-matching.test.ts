import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { builtinResourceTypes } from "../builtin/builtin-resource-types.js";
import { customResourceTypes } from "../crd/custom-resource-type.js";
import { ResourceRegistry } from "../registry/resource-registry.js";
import type { ResourceType } from "../resource-type.js";
import { invocationType, isExemptFromWebhooks, ruleMatches } from "./rule-matching.js";
import type { AdmissionOperation, Webhook, WebhookRule } from "./webhook-configuration.js";

const registry = new ResourceRegistry(builtinResourceTypes());
registry.setCustom(
  "widgets.example.com",
  customResourceTypes({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: ["v1", "v2"].map((name) => ({
        name,
        served: true,
        storage: name === "v2",
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      })),
    },
  }),
);

function type(group: string, version: string, plural: string): ResourceType {
  const found = registry.find(group, version, plural);
  assert.ok(found, `${plural}.${group}/${version} is registered`);
  return found;
}

function rule(fields: Partial<WebhookRule>): WebhookRule {
  return { operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], scope: "*", ...fields };
}

function target(
  resource: ResourceType,
  fields: { operation?: AdmissionOperation; subresource?: string; namespace?: string } = {},
) {
  return {
    type: resource,
    operation: fields.operation ?? "CREATE",
    subresource: fields.subresource ?? "",
    namespace: fields.namespace ?? "default",
  };
}

describe("webhook rules", () => {
  const pods = type("", "v1", "pods");
  const namespaces = type("", "v1", "namespaces");
  const nodes = type("", "v1", "nodes");

  test("resources: a name, `*` (no subresources), `*/*`, `name/*`, `*/sub`", () => {
    const cases: [string[], string, boolean][] = [
      [["pods"], "", true],
      [["pods"], "status", false],
      [["pods/status"], "status", true],
      [["pods/status"], "", false],
      [["*"], "", true],
      [["*"], "status", false],
      [["*/*"], "status", true],
      [["*/*"], "", true],
      [["pods/*"], "binding", true],
      [["*/status"], "status", true],
      [["*/status"], "", false],
      [["deployments"], "", false],
    ];
    for (const [resources, subresource, expected] of cases) {
      assert.equal(
        ruleMatches(rule({ resources }), target(pods, { subresource })),
        expected,
        `${resources} vs pods/${subresource}`,
      );
    }
  });

  test("operations, groups and versions must each list the request's or `*`", () => {
    assert.equal(ruleMatches(rule({ operations: ["UPDATE"] }), target(pods)), false);
    assert.equal(ruleMatches(rule({ operations: ["CREATE", "UPDATE"] }), target(pods)), true);
    assert.equal(ruleMatches(rule({ apiGroups: ["apps"] }), target(pods)), false);
    assert.equal(ruleMatches(rule({ apiGroups: [""] }), target(pods)), true);
    assert.equal(ruleMatches(rule({ apiVersions: ["v1beta1"] }), target(pods)), false);
  });

  test("scope: Namespace objects are cluster-scoped; Namespaced needs a namespace", () => {
    const namespaced = rule({ scope: "Namespaced" });
    const cluster = rule({ scope: "Cluster" });
    assert.equal(ruleMatches(namespaced, target(pods)), true);
    assert.equal(ruleMatches(cluster, target(pods)), false);
    assert.equal(ruleMatches(cluster, target(nodes, { namespace: "" })), true);
    assert.equal(ruleMatches(namespaced, target(namespaces, { namespace: "team-a" })), false);
    assert.equal(ruleMatches(cluster, target(namespaces, { namespace: "team-a" })), true);
  });

  test("matchPolicy Equivalent calls a webhook with another served version its rules name; Exact does not", () => {
    const webhook = {
      rules: [rule({ apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"] })],
    };
    const v2 = type("example.com", "v2", "widgets");
    const equivalent = invocationType(
      { ...webhook, matchPolicy: "Equivalent" } as Webhook,
      target(v2),
      registry,
    );
    assert.equal(equivalent?.version, "v1");
    assert.equal(
      invocationType({ ...webhook, matchPolicy: "Exact" } as Webhook, target(v2), registry),
      undefined,
    );
    const v1 = type("example.com", "v1", "widgets");
    assert.equal(invocationType({ ...webhook, matchPolicy: "Exact" } as Webhook, target(v1), registry), v1);
  });

  test("webhook configurations are exempt; other admissionregistration kinds' neighbours are not", () => {
    assert.equal(
      isExemptFromWebhooks(type("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations")),
      true,
    );
    assert.equal(
      isExemptFromWebhooks(type("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations")),
      true,
    );
    assert.equal(isExemptFromWebhooks(pods), false);
  });
});
