import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { KubeVirt } from "../../api/index.js";
import { MANAGED_BY_LABEL } from "../strategy/install-strategy.js";
import type { PolicyRule } from "../strategy/policy-rule.js";
import { renderStrategy } from "../strategy/render-strategy.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import { OPERATOR_CLUSTER_RULES, OPERATOR_NAMESPACE_RULES } from "./operator-permissions.js";
import { bindRulesForUnrenderedRoles } from "./operator-rbac.js";
import { renderKubeVirtCr, renderOperatorBundle } from "./render-operator-bundle.js";
import { rulesCover } from "./rule-union.js";

interface BundleObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  rules?: PolicyRule[];
  spec?: Record<string, unknown>;
}

const bundle = renderOperatorBundle({
  registry: "registry.example/kv",
  tag: "v1.2.3",
}) as unknown as BundleObject[];
const kubevirt: KubeVirt = {
  apiVersion: "kubevirt.io/v1",
  kind: "KubeVirt",
  metadata: { name: "kubevirt", namespace: "kubevirt" },
  spec: {},
};
const strategy = renderStrategy(
  { namespace: "kubevirt", registry: "registry.example/kv", version: "v1.2.3" },
  kubevirt,
  TEST_TRUST,
);

function bundleObject(kind: string, name: string): BundleObject {
  const found = bundle.find((object) => object.kind === kind && object.metadata.name === name);
  assert.ok(found, `no ${kind} ${name} in the bundle`);
  return found;
}

function strategyRules(kind: string): PolicyRule[] {
  return strategy.objects
    .filter((object) => object.kind === kind)
    .flatMap((object) => object.rules as PolicyRule[]);
}

/** Every (group, resource, verb) a rule list allows, as text. */
function atoms(rules: readonly PolicyRule[]): Set<string> {
  return new Set(
    rules.flatMap((rule) =>
      rule.apiGroups.flatMap((group) =>
        rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${group}/${resource}:${verb}`)),
      ),
    ),
  );
}

describe("the operator bundle", () => {
  test("objects in apply order: Namespace, KubeVirt CRD, account, RBAC, Deployment", () => {
    assert.deepEqual(
      bundle.map((object) => `${object.kind}/${object.metadata.name}`),
      [
        "Namespace/kubevirt",
        "CustomResourceDefinition/kubevirts.kubevirt.io",
        "ServiceAccount/kubevirt-operator",
        "ClusterRole/kubevirt-operator",
        "ClusterRoleBinding/kubevirt-operator",
        "Role/kubevirt-operator",
        "RoleBinding/kubevirt-operator",
        "Deployment/virt-operator",
      ],
    );
  });

  test("nothing in it is labelled managed-by: the operator never removes its own bundle", () => {
    for (const object of bundle)
      assert.equal(object.metadata.labels?.[MANAGED_BY_LABEL], undefined, object.kind);
    assert.ok(!strategy.objects.some((object) => object.metadata.name === "kubevirts.kubevirt.io"));
  });

  test("the operator may grant every rule the strategy renders: ClusterRoles' cluster-wide, Roles' in its namespace", () => {
    const cluster = bundleObject("ClusterRole", "kubevirt-operator").rules ?? [];
    const namespaced = bundleObject("Role", "kubevirt-operator").rules ?? [];
    for (const rule of [...OPERATOR_CLUSTER_RULES, ...strategyRules("ClusterRole")]) {
      assert.ok(rulesCover(cluster, rule), `cluster-wide: ${JSON.stringify(rule)}`);
    }
    // The roles Kubernetes provides, which the strategy binds for virt-api: by name, nothing more.
    const kubernetesRoles = [
      { resources: ["clusterroles"], name: "system:auth-delegator" },
      { resources: ["roles"], name: "extension-apiserver-authentication-reader" },
    ];
    for (const { resources, name } of kubernetesRoles) {
      const bind = {
        apiGroups: ["rbac.authorization.k8s.io"],
        resources,
        verbs: ["bind"],
        resourceNames: [name],
      };
      assert.ok(rulesCover(cluster, bind), `bind ${name}`);
      assert.ok(!rulesCover(cluster, { ...bind, resourceNames: ["cluster-admin"] }), `bind only ${name}`);
    }
    for (const rule of [...OPERATOR_NAMESPACE_RULES, ...strategyRules("Role")]) {
      assert.ok(rulesCover([...namespaced, ...cluster], rule), `in kubevirt: ${JSON.stringify(rule)}`);
    }
    // What the user roles grant, the operator must hold (RBAC's escalation check).
    assert.ok(
      rulesCover(cluster, {
        apiGroups: ["subresources.kubevirt.io"],
        resources: [
          "virtualmachines/start",
          "virtualmachines/addvolume",
          "virtualmachines/removevolume",
          "virtualmachineinstances/addvolume",
          "virtualmachineinstances/removevolume",
        ],
        verbs: ["update"],
      }),
    );
  });

  test("and holds nothing else: every permission comes from its own calls, a strategy role, or a binding of Kubernetes' roles", () => {
    const wanted = atoms([
      ...OPERATOR_CLUSTER_RULES,
      ...strategyRules("ClusterRole"),
      ...bindRulesForUnrenderedRoles(strategy.objects),
    ]);
    assert.deepEqual(
      [...atoms(bundleObject("ClusterRole", "kubevirt-operator").rules ?? [])].filter(
        (atom) => !wanted.has(atom),
      ),
      [],
    );
    const wantedInNamespace = atoms([...OPERATOR_NAMESPACE_RULES, ...strategyRules("Role")]);
    assert.deepEqual(
      [...atoms(bundleObject("Role", "kubevirt-operator").rules ?? [])].filter(
        (atom) => !wantedInNamespace.has(atom),
      ),
      [],
    );
    assert.ok(
      !atoms(bundleObject("ClusterRole", "kubevirt-operator").rules ?? []).has(
        "coordination.k8s.io/leases:get",
      ),
      "Leases only in its namespace",
    );
  });

  test("no wildcard in any rule", () => {
    for (const role of bundle.filter((object) => object.rules !== undefined)) {
      assert.ok(!JSON.stringify(role.rules).includes("*"), role.kind);
    }
  });

  test("virt-operator: 2 replicas of its image, told its own image, namespace and pod IP, probed on /readyz", () => {
    const deployment = bundleObject("Deployment", "virt-operator");
    const spec = deployment.spec as {
      replicas: number;
      selector: unknown;
      template: {
        metadata: { labels: Record<string, string> };
        spec: {
          serviceAccountName: string;
          containers: {
            image: string;
            env: unknown[];
            ports: unknown[];
            readinessProbe: { httpGet: unknown };
          }[];
        };
      };
    };
    assert.equal(spec.replicas, 2);
    assert.deepEqual(spec.selector, { matchLabels: { "kubevirt.io": "virt-operator" } });
    assert.equal(spec.template.metadata.labels["kubevirt.io"], "virt-operator");
    assert.equal(spec.template.spec.serviceAccountName, "kubevirt-operator");
    const container = spec.template.spec.containers[0];
    assert.ok(container);
    assert.equal(container.image, "registry.example/kv/virt-operator:v1.2.3");
    assert.deepEqual(container.env, [
      { name: "VIRT_OPERATOR_IMAGE", value: "registry.example/kv/virt-operator:v1.2.3" },
      { name: "POD_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
      { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
    ]);
    // Probed on the plain health port; its /metrics is HTTPS on KubeVirt's 8443.
    assert.deepEqual(container.readinessProbe.httpGet, { path: "/readyz", port: 8081 });
    assert.deepEqual(container.ports, [{ name: "metrics", containerPort: 8443, protocol: "TCP" }]);
  });

  test("the bindings give the roles to the operator's account", () => {
    for (const kind of ["ClusterRoleBinding", "RoleBinding"]) {
      const binding = bundleObject(kind, "kubevirt-operator") as BundleObject & {
        roleRef: unknown;
        subjects: unknown;
      };
      assert.deepEqual(binding.roleRef, {
        apiGroup: "rbac.authorization.k8s.io",
        kind: kind === "RoleBinding" ? "Role" : "ClusterRole",
        name: "kubevirt-operator",
      });
      assert.deepEqual(binding.subjects, [
        { kind: "ServiceAccount", name: "kubevirt-operator", namespace: "kubevirt" },
      ]);
    }
  });

  test("the KubeVirt CR is KubeVirt's release CR", () => {
    assert.deepEqual(renderKubeVirtCr(), {
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: "kubevirt" },
      spec: {
        certificateRotateStrategy: {},
        configuration: { developerConfiguration: { featureGates: [] } },
        customizeComponents: {},
        imagePullPolicy: "IfNotPresent",
        workloadUpdateStrategy: {},
      },
    });
  });
});
