import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { requestAttributes } from "./attributes.js";
import { forbidden } from "./forbidden.js";

const handler = { username: "system:serviceaccount:kubevirt:virt-handler", uid: "", groups: [] };

describe("the 403 of a denied request", () => {
  const cases: [string, string, string, string, Record<string, string>][] = [
    [
      "GET",
      "/api/v1/namespaces/default/pods",
      "",
      'pods is forbidden: User "system:serviceaccount:kubevirt:virt-handler" cannot list resource "pods" in API group "" in the namespace "default"',
      { kind: "pods" },
    ],
    [
      "PUT",
      "/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstances/vm1/status",
      "",
      'virtualmachineinstances.kubevirt.io "vm1" is forbidden: User "system:serviceaccount:kubevirt:virt-handler" cannot update resource "virtualmachineinstances/status" in API group "kubevirt.io" in the namespace "vms"',
      { name: "vm1", group: "kubevirt.io", kind: "virtualmachineinstances" },
    ],
    [
      "GET",
      "/api/v1/nodes/n1",
      "",
      'nodes "n1" is forbidden: User "system:serviceaccount:kubevirt:virt-handler" cannot get resource "nodes" in API group "" at the cluster scope',
      { name: "n1", kind: "nodes" },
    ],
    [
      "GET",
      "/metrics",
      "",
      'forbidden: User "system:serviceaccount:kubevirt:virt-handler" cannot get path "/metrics"',
      {},
    ],
    [
      "GET",
      "/api/v1/nodes",
      'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
      'nodes is forbidden: User "system:serviceaccount:kubevirt:virt-handler" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
      { kind: "nodes" },
    ],
  ];
  for (const [method, url, reason, message, details] of cases) {
    test(`${method} ${url}`, () => {
      const status = forbidden(requestAttributes(method, url, handler), reason).toStatus();
      assert.deepEqual(status, {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message,
        reason: "Forbidden",
        details,
        code: 403,
      });
    });
  }

  test("what the client chose is escaped as upstream's sanitizer does", () => {
    const error = forbidden(requestAttributes("GET", "/x<script>&", handler), "");
    assert.equal(
      error.message,
      `forbidden: User "${handler.username}" cannot get path "/x&lt;script&gt;&amp;"`,
    );
  });
});
