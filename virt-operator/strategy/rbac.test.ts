import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { KubeVirt } from "../../api/index.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import type { ManagedObject } from "./install-strategy.js";
import type { PolicyRule } from "./policy-rule.js";
import { renderStrategy } from "./render-strategy.js";

const KUBEVIRT: KubeVirt = {
  apiVersion: "kubevirt.io/v1",
  kind: "KubeVirt",
  metadata: { name: "kubevirt", namespace: "kubevirt" },
  spec: {},
};
const strategy = renderStrategy(
  { namespace: "kubevirt", registry: "r.example", version: "v1" },
  KUBEVIRT,
  TEST_TRUST,
);
const roles = strategy.objects.filter((object) => object.kind === "ClusterRole" || object.kind === "Role");

function rulesOf(kind: string, name: string): PolicyRule[] {
  const role = roles.find((object) => object.kind === kind && object.metadata.name === name);
  assert.ok(role, `no ${kind} ${name}`);
  return role.rules as PolicyRule[];
}

/** Whether any rule of `rules` allows `verb` on `resource` of `group`. */
function allows(rules: PolicyRule[], group: string, resource: string, verb: string): boolean {
  return rules.some(
    (rule) =>
      rule.apiGroups.includes(group) && rule.resources.includes(resource) && rule.verbs.includes(verb),
  );
}

const KNOWN_VERBS = new Set([
  "get",
  "list",
  "watch",
  "create",
  "update",
  "patch",
  "delete",
  "deletecollection",
]);

describe("strategy RBAC", () => {
  test("no wildcard, no empty list, only Kubernetes' verbs, in any rule", () => {
    assert.ok(roles.length >= 6);
    for (const role of roles) {
      for (const rule of role.rules as PolicyRule[]) {
        const where = `${role.kind} ${role.metadata.name}: ${JSON.stringify(rule)}`;
        for (const list of [rule.apiGroups, rule.resources, rule.verbs]) {
          assert.ok(list.length > 0, where);
          assert.ok(!list.some((entry) => entry.includes("*")), where);
        }
        for (const verb of rule.verbs) assert.ok(KNOWN_VERBS.has(verb), where);
        if (rule.resourceNames) assert.ok(rule.resourceNames.length > 0 && role.kind === "Role", where);
      }
    }
  });

  test("virt-controller: VMs, VMIs and launcher pods, its Lease and its certificate in its namespace only, nothing of nodes or RBAC", () => {
    const cluster = rulesOf("ClusterRole", "kubevirt-controller");
    for (const verb of ["list", "watch", "create", "update", "delete"]) {
      assert.ok(allows(cluster, "kubevirt.io", "virtualmachineinstances", verb), verb);
    }
    assert.ok(allows(cluster, "kubevirt.io", "virtualmachines/status", "update"));
    // replicaset/: its informer and an uncached read before adopting, its status, VMIs adopted by patch.
    for (const verb of ["get", "list", "watch"]) {
      assert.ok(allows(cluster, "kubevirt.io", "virtualmachineinstancereplicasets", verb), verb);
    }
    assert.ok(allows(cluster, "kubevirt.io", "virtualmachineinstancereplicasets/status", "update"));
    assert.ok(allows(cluster, "kubevirt.io", "virtualmachineinstances", "patch"));
    assert.ok(allows(cluster, "", "pods", "create") && allows(cluster, "", "pods", "delete"));
    assert.ok(!allows(cluster, "", "pods", "update"));
    assert.ok(!cluster.some((rule) => rule.resources.some((resource) => resource.startsWith("nodes"))));
    assert.ok(
      !cluster.some((rule) => rule.apiGroups.includes("coordination.k8s.io")),
      "leases only in a Role",
    );
    assert.ok(!cluster.some((rule) => rule.resources.includes("secrets")), "no Secret cluster-wide");
    assert.deepEqual(rulesOf("Role", "kubevirt-controller"), [
      { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "create", "update"] },
      {
        apiGroups: [""],
        resources: ["secrets"],
        verbs: ["list", "watch"],
        resourceNames: [CERTIFICATE_SECRETS.controllerServer],
      },
    ]);
  });

  test("virt-handler: its VMIs and Node, reads pods and its console certificate only, creates nothing but Events", () => {
    const cluster = rulesOf("ClusterRole", "kubevirt-handler");
    assert.ok(allows(cluster, "kubevirt.io", "virtualmachineinstances", "update"));
    assert.ok(allows(cluster, "", "nodes", "patch") && allows(cluster, "", "nodes/status", "patch"));
    assert.ok(allows(cluster, "", "pods", "list") && !allows(cluster, "", "pods", "create"));
    for (const rule of cluster) {
      if (rule.resources.includes("events")) continue;
      assert.ok(!rule.verbs.includes("create") && !rule.verbs.includes("delete"), JSON.stringify(rule));
    }
    assert.ok(!cluster.some((rule) => rule.resources.includes("secrets")), "no Secret cluster-wide");
    assert.deepEqual(rulesOf("Role", "kubevirt-handler"), [
      {
        apiGroups: [""],
        resources: ["secrets"],
        verbs: ["list", "watch"],
        resourceNames: [CERTIFICATE_SECRETS.handlerServer],
      },
    ]);
  });

  test("virt-handler cannot get or list Secrets: the ones VMIs reference come through launcher pods' volumes", () => {
    const rules = [...rulesOf("ClusterRole", "kubevirt-handler"), ...rulesOf("Role", "kubevirt-handler")];
    assert.ok(!allows(rules, "", "secrets", "get"), "no get of any Secret");
    for (const rule of rules.filter((candidate) => candidate.resources.includes("secrets"))) {
      assert.deepEqual(rule.resourceNames, [CERTIFICATE_SECRETS.handlerServer], "only its own certificate");
    }
    assert.ok(
      !allows(rulesOf("ClusterRole", "kubevirt-handler"), "", "secrets", "list"),
      "no list cluster-wide",
    );
  });

  test("virt-api: access reviews, start/stop of VMs, VMIs read and patched, claims and DataVolumes read (inference), pods listed (port-forward's launcher pods); the KubeVirt CR and its two Secrets in its namespace only", () => {
    assert.deepEqual(rulesOf("ClusterRole", "kubevirt-apiserver"), [
      { apiGroups: ["authorization.k8s.io"], resources: ["subjectaccessreviews"], verbs: ["create"] },
      { apiGroups: ["kubevirt.io"], resources: ["virtualmachines"], verbs: ["get", "patch"] },
      { apiGroups: ["kubevirt.io"], resources: ["virtualmachines/status"], verbs: ["patch"] },
      { apiGroups: ["kubevirt.io"], resources: ["virtualmachineinstances"], verbs: ["get", "patch"] },
      {
        apiGroups: ["instancetype.kubevirt.io"],
        resources: [
          "virtualmachineinstancetypes",
          "virtualmachineclusterinstancetypes",
          "virtualmachinepreferences",
          "virtualmachineclusterpreferences",
        ],
        verbs: ["get"],
      },
      { apiGroups: ["apps"], resources: ["controllerrevisions"], verbs: ["get"] },
      { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get"] },
      { apiGroups: ["cdi.kubevirt.io"], resources: ["datavolumes"], verbs: ["get"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
    ]);
    assert.deepEqual(rulesOf("Role", "kubevirt-apiserver"), [
      { apiGroups: ["kubevirt.io"], resources: ["kubevirts"], verbs: ["list", "watch"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
      {
        apiGroups: [""],
        resources: ["secrets"],
        verbs: ["list", "watch"],
        resourceNames: [CERTIFICATE_SECRETS.apiServer, CERTIFICATE_SECRETS.handlerClient],
      },
    ]);
  });

  test("virt-api is an aggregated API server: bound to system:auth-delegator and, in kube-system, to the authentication reader", () => {
    const binding = (kind: string, name: string) => {
      const found = strategy.objects.find((object) => object.kind === kind && object.metadata.name === name);
      assert.ok(found, `${kind} ${name}`);
      return found;
    };
    const delegator = binding("ClusterRoleBinding", "kubevirt-apiserver-auth-delegator");
    assert.deepEqual(delegator.roleRef, {
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "system:auth-delegator",
    });
    const reader = binding("RoleBinding", "kubevirt-apiserver-auth-reader");
    assert.equal(reader.metadata.namespace, "kube-system");
    assert.deepEqual(reader.roleRef, {
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Role",
      name: "extension-apiserver-authentication-reader",
    });
    for (const bound of [delegator, reader]) {
      assert.deepEqual(bound.subjects, [
        { kind: "ServiceAccount", name: "kubevirt-apiserver", namespace: "kubevirt" },
      ]);
    }
  });

  test("the user roles aggregate into admin, edit and view, with KubeVirt's subresource verbs", () => {
    const aggregation = (role: ManagedObject) =>
      Object.keys(role.metadata.labels).filter((label) =>
        label.startsWith("rbac.authorization.k8s.io/aggregate-to-"),
      );
    for (const level of ["admin", "edit", "view"]) {
      const role = roles.find((object) => object.metadata.name === `kubevirt.io:${level}`);
      assert.ok(role, level);
      assert.deepEqual(aggregation(role), [`rbac.authorization.k8s.io/aggregate-to-${level}`]);
      assert.equal(role.metadata.labels[`rbac.authorization.k8s.io/aggregate-to-${level}`], "true");
    }
    for (const level of ["admin", "edit"]) {
      const rules = rulesOf("ClusterRole", `kubevirt.io:${level}`);
      for (const resource of [
        "virtualmachineinstances/console",
        "virtualmachineinstances/vnc",
        "virtualmachineinstances/portforward",
        "virtualmachines/portforward",
        "virtualmachineinstances/guestosinfo",
        "virtualmachineinstances/userlist",
        "virtualmachineinstances/filesystemlist",
        "virtualmachines/expand-spec",
      ]) {
        assert.ok(allows(rules, "subresources.kubevirt.io", resource, "get"), `${level} ${resource}`);
      }
      for (const resource of [
        "virtualmachineinstances/pause",
        "virtualmachineinstances/unpause",
        "virtualmachines/start",
        "virtualmachines/stop",
        "virtualmachines/restart",
        "virtualmachines/addvolume",
        "virtualmachines/removevolume",
        "virtualmachineinstances/addvolume",
        "virtualmachineinstances/removevolume",
        "expand-vm-spec",
      ]) {
        assert.ok(allows(rules, "subresources.kubevirt.io", resource, "update"), `${level} ${resource}`);
      }
      for (const resource of [
        "virtualmachines",
        "virtualmachineinstancereplicasets",
        "virtualmachineinstancemigrations",
      ]) {
        assert.ok(allows(rules, "kubevirt.io", resource, "create"), `${level} ${resource}`);
      }
    }
    const view = rulesOf("ClusterRole", "kubevirt.io:view");
    assert.ok(allows(view, "kubevirt.io", "virtualmachines", "list"));
    // Writes nothing, as KubeVirt's view role has it: expand-vm-spec is a PUT that only computes.
    const writes = view.filter((rule) => rule.verbs.some((verb) => !["get", "list", "watch"].includes(verb)));
    assert.deepEqual(writes, [
      { apiGroups: ["subresources.kubevirt.io"], resources: ["expand-vm-spec"], verbs: ["update"] },
    ]);
    assert.ok(allows(view, "subresources.kubevirt.io", "virtualmachines/expand-spec", "get"));
    assert.ok(
      !allows(view, "subresources.kubevirt.io", "virtualmachineinstances/console", "get"),
      "no console for viewers",
    );
    assert.ok(!allows(view, "subresources.kubevirt.io", "virtualmachineinstances/pause", "update"));
    for (const resource of ["guestosinfo", "userlist", "filesystemlist"]) {
      const path = `virtualmachineinstances/${resource}`;
      assert.ok(allows(view, "subresources.kubevirt.io", path, "get"), `viewers read ${resource}`);
    }
  });

  test("every authenticated user may read the cluster-wide instancetypes and preferences, as KubeVirt binds it", () => {
    const rules = rulesOf("ClusterRole", "instancetype.kubevirt.io:view");
    for (const resource of ["virtualmachineclusterinstancetypes", "virtualmachineclusterpreferences"])
      for (const verb of ["get", "list", "watch"])
        assert.ok(allows(rules, "instancetype.kubevirt.io", resource, verb), `${resource} ${verb}`);
    assert.ok(
      !allows(rules, "instancetype.kubevirt.io", "virtualmachineinstancetypes", "get"),
      "namespaced kinds stay per namespace",
    );
    const binding = strategy.objects.find(
      (object) =>
        object.kind === "ClusterRoleBinding" && object.metadata.name === "instancetype.kubevirt.io:view",
    );
    assert.deepEqual(binding?.roleRef, {
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "instancetype.kubevirt.io:view",
    });
    assert.deepEqual(binding?.subjects, [
      { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "system:authenticated" },
    ]);
  });
});
