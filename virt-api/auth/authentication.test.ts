// Request-header authentication and SubjectAccessReview authorization, end to end: virt-api
// in-process against the dev API server, called as the aggregation layer calls it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createCertificateAuthority,
  issueClientCertificate,
  issueServerCertificate,
} from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import { defineKind, type KubeObject } from "../../runtime/index.js";
import { secretKind } from "../../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { vmKind } from "../kinds.js";
import { createVm, subresourcePath, TEST_NAMESPACE } from "../testing/test-objects.js";
import { NAMESPACE, startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";

const roleKind = defineKind<KubeObject & { rules: unknown[] }>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "Role",
  plural: "roles",
  namespaced: true,
});
const roleBindingKind = defineKind<KubeObject & { roleRef: unknown; subjects: unknown[] }>({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind: "RoleBinding",
  plural: "rolebindings",
  namespaced: true,
});

describe("virt-api: who may call", () => {
  let fixture: VirtApiFixture;
  const start = subresourcePath("virtualmachines", "auth-vm", "start");

  before(async () => {
    fixture = await startVirtApiFixture();
    await createVm(fixture.client, "auth-vm", "Manual");
  });
  after(() => fixture.close());

  test("the front-proxy's certificate with X-Remote-User is a caller: discovery and version answer", async () => {
    const group = await fixture.call("GET", "/apis/subresources.kubevirt.io");
    assert.equal(group.code, 200, group.body);
    assert.deepEqual((group.json as { preferredVersion: unknown }).preferredVersion, {
      groupVersion: "subresources.kubevirt.io/v1",
      version: "v1",
    });
    const resources = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1");
    const names = (resources.json as { resources: { name: string }[] }).resources.map(
      (resource) => resource.name,
    );
    for (const name of [
      "virtualmachines/start",
      "virtualmachines/stop",
      "virtualmachines/restart",
      "virtualmachineinstances/console",
      "virtualmachineinstances/vnc",
      "virtualmachineinstances/pause",
      "virtualmachineinstances/unpause",
      "virtualmachineinstances/guestosinfo",
    ]) {
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    }
    const version = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1/version");
    assert.equal(version.code, 200);
    assert.match((version.json as { gitVersion: string }).gitVersion, /^v\d+\.\d+\.\d+/);
  });

  test("without a client certificate the headers count for nothing: 401", async () => {
    const answer = await fixture.call("PUT", start, { certificate: null });
    assert.equal(answer.code, 401, answer.body);
    assert.equal((answer.json as { reason: string }).reason, "Unauthorized");
    assert.equal(
      (await fixture.call("GET", "/apis/subresources.kubevirt.io/v1", { certificate: null })).code,
      401,
    );
  });

  test("a certificate from a CA nobody published, with the right name: 401", async () => {
    const answer = await fixture.call("PUT", start, { certificate: fixture.certificates.rogueClient });
    assert.equal(answer.code, 401, answer.body);
  });

  test("the published CA's certificate with a name not allowed: 401", async () => {
    const answer = await fixture.call("PUT", start, { certificate: fixture.certificates.wrongNameClient });
    assert.equal(answer.code, 401, answer.body);
    assert.match((answer.json as { message: string }).message, /intruder/);
  });

  test("the front-proxy without a user header: 401", async () => {
    const answer = await fixture.call("PUT", start, { user: "" });
    assert.equal(answer.code, 401, answer.body);
  });

  test("the webhooks and probes need no caller", async () => {
    assert.equal((await fixture.call("GET", "/healthz", { certificate: null })).code, 200);
    assert.equal((await fixture.call("GET", "/readyz", { certificate: null })).code, 200);
    const metrics = await fixture.call("GET", "/metrics", { certificate: null });
    assert.match(metrics.body, /kubevirt_virt_api_active_streams/);
    const review = await fixture.call("POST", "/virtualmachines-validate", {
      certificate: null,
      body: JSON.stringify({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: { uid: "u1", operation: "DELETE" },
      }),
    });
    assert.equal(review.code, 200, review.body);
  });

  test("a user RBAC does not allow gets 403 naming user, verb and resource; a Role then lets them", async () => {
    const bob = { user: "bob", groups: ["system:authenticated"] };
    const denied = await fixture.call("PUT", start, bob);
    assert.equal(denied.code, 403, denied.body);
    const status = denied.json as { reason: string; message: string };
    assert.equal(status.reason, "Forbidden");
    assert.match(
      status.message,
      /User "bob" cannot update resource "virtualmachines\/start" in API group "subresources.kubevirt.io" in the namespace "default"/,
    );
    const consoleDenied = await fixture.call(
      "GET",
      subresourcePath("virtualmachineinstances", "auth-vm", "console"),
      bob,
    );
    assert.equal(consoleDenied.code, 403, consoleDenied.body);

    await fixture.client.resource(roleKind).create({
      metadata: { name: "vm-starter", namespace: TEST_NAMESPACE },
      rules: [
        { apiGroups: ["subresources.kubevirt.io"], resources: ["virtualmachines/start"], verbs: ["update"] },
      ],
    });
    await fixture.client.resource(roleBindingKind).create({
      metadata: { name: "bob-starts-vms", namespace: TEST_NAMESPACE },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "vm-starter" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "bob" }],
    });
    const allowed = await eventually("bob's start allowed", async () => {
      const answer = await fixture.call("PUT", start, bob);
      return answer.code === 403 ? undefined : answer;
    });
    assert.equal(allowed.code, 202, allowed.body);
    const vm = await fixture.client.resource(vmKind).get({ namespace: TEST_NAMESPACE, name: "auth-vm" });
    assert.deepEqual(vm.status?.stateChangeRequests, [{ action: "Start" }]);
  });

  test("a rotated front-proxy CA applies without a restart: the old certificate is refused, the new one taken", async () => {
    const newCa = await createCertificateAuthority("front-proxy-ca-2", 1);
    const newClient = await issueClientCertificate(newCa, "front-proxy-client", [], 1);
    await fixture.publishRequestHeaderSettings(newCa.certPem);
    await eventually("the old front-proxy certificate refused", async () =>
      (await fixture.call("GET", "/apis/subresources.kubevirt.io/v1")).code === 401 ? true : undefined,
    );
    const answer = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1", { certificate: newClient });
    assert.equal(answer.code, 200, answer.body);
    // Back to the first CA, for whatever runs after.
    await fixture.publishRequestHeaderSettings(fixture.certificates.frontProxyCa.certPem);
    await eventually("the first front-proxy certificate taken again", async () =>
      (await fixture.call("GET", "/apis/subresources.kubevirt.io/v1")).code === 200 ? true : undefined,
    );
  });

  test("a rotated serving certificate is served to new connections without a restart", async () => {
    const ca = await createCertificateAuthority("kubevirt-ca-2", 1);
    const serving = await issueServerCertificate(ca, { hosts: ["localhost"], ips: ["127.0.0.1"] }, 1);
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const secrets = fixture.client.resource(secretKind);
    const current = await secrets.get({ namespace: NAMESPACE, name: CERTIFICATE_SECRETS.apiServer });
    await secrets.update({
      ...current,
      data: {
        "tls.crt": base64(serving.certPem),
        "tls.key": base64(serving.keyPem),
        "ca.crt": base64(ca.certPem),
      },
    });
    const answer = await eventually("the new certificate served", async () => {
      try {
        return await fixture.call("GET", "/healthz", { certificate: null, serverCaPem: ca.certPem });
      } catch {
        return undefined; // still the old certificate: the new CA does not verify it
      }
    });
    assert.equal(answer.code, 200);
    await assert.rejects(fixture.call("GET", "/healthz", { certificate: null }), /certificate/);
  });
});
