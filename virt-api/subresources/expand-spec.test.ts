// expand-spec and expand-vm-spec through virt-api against the dev API server: a stored VM and a VM
// sent in the body come back with their instancetype and preference applied and no matchers; what
// cannot be expanded is KubeVirt's 500 (stored) or 400 (sent) with its message; a body that is no
// VirtualMachine, or is in another namespace, is a 400; RBAC decides who may ask; discovery lists both.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  clusterInstancetypeKind,
  clusterPreferenceKind,
  controllerRevisionKind,
  WEBHOOK_PATHS,
} from "../../api/index.js";
import { type VirtualMachine, vmKind } from "../kinds.js";
import type { CallResult } from "../testing/front-proxy-client.js";
import { subresourcePath, TEST_NAMESPACE, vmManifest } from "../testing/test-objects.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "../webhooks/admission-review.js";

const EXPAND_VM_SPEC = `/apis/subresources.kubevirt.io/v1/namespaces/${TEST_NAMESPACE}/expand-vm-spec`;

/** A VM sized by `it-small` and preferring `pref-virtio`, without memory of its own. */
function sizedVm(name: string, instancetype = "it-small"): VirtualMachine {
  const vm = vmManifest(name, "Halted");
  const domain = vm.spec.template.spec?.domain;
  if (domain) delete domain.resources;
  return {
    ...vm,
    spec: {
      ...vm.spec,
      instancetype: { kind: "VirtualMachineClusterInstancetype", name: instancetype },
      preference: { kind: "VirtualMachineClusterPreference", name: "pref-virtio" },
    },
  };
}

describe("virt-api: expand-spec and expand-vm-spec", () => {
  let fixture: VirtApiFixture;

  before(async () => {
    fixture = await startVirtApiFixture();
    await fixture.client.resource(clusterInstancetypeKind).create({
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterInstancetype",
      metadata: { name: "it-small" },
      spec: { cpu: { guest: 2 }, memory: { guest: "1Gi" } },
    });
    await fixture.client.resource(clusterPreferenceKind).create({
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterPreference",
      metadata: { name: "pref-virtio" },
      spec: { devices: { preferredInterfaceModel: "e1000" }, cpu: { preferredCPUTopology: "cores" } },
    });
  });
  after(() => fixture.close());

  const message = (answer: CallResult): string =>
    (answer.json as { message?: string } | undefined)?.message ?? answer.body;

  function assertExpanded(answer: CallResult, name: string): VirtualMachine {
    assert.equal(answer.code, 200, answer.body);
    const vm = answer.json as VirtualMachine;
    assert.equal(vm.metadata?.name, name);
    assert.equal(vm.spec.instancetype, undefined, "no instancetype matcher left");
    assert.equal(vm.spec.preference, undefined, "no preference matcher left");
    const spec = vm.spec.template.spec;
    assert.equal(spec?.domain.memory?.guest, "1Gi", "the instancetype's memory");
    assert.deepEqual(
      [spec?.domain.cpu?.sockets, spec?.domain.cpu?.cores],
      [1, 2],
      "its vCPUs as the preference's cores",
    );
    assert.equal(
      spec?.domain.devices.interfaces?.[0]?.model,
      "e1000",
      "the preference fills the default interface",
    );
    assert.equal(spec?.domain.machine?.type, "q35", "the VMI's defaults");
    assert.equal(
      vm.spec.template.metadata?.annotations?.["kubevirt.io/cluster-instancetype-name"],
      "it-small",
    );
    return vm;
  }

  test("a stored VM comes back expanded; the stored VM is unchanged", async () => {
    await fixture.client.resource(vmKind).create(sizedVm("stored"));
    const answer = await fixture.call("GET", subresourcePath("virtualmachines", "stored", "expand-spec"));
    assertExpanded(answer, "stored");
    const stored = await fixture.client.resource(vmKind).get({ namespace: TEST_NAMESPACE, name: "stored" });
    assert.equal(stored.spec.instancetype?.name, "it-small");
  });

  test("a VM in the body comes back expanded, in the request's namespace", async () => {
    const sent = sizedVm("sent");
    delete sent.metadata?.namespace;
    const answer = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(sent) });
    const vm = assertExpanded(answer, "sent");
    assert.equal(vm.metadata?.namespace, TEST_NAMESPACE);
  });

  test("a VM without an instancetype or preference comes back as sent", async () => {
    const plain = vmManifest("plain", "Halted");
    const answer = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(plain) });
    assert.equal(answer.code, 200, answer.body);
    assert.deepEqual(answer.json, plain);
  });

  test("what cannot be expanded: KubeVirt's messages, 500 for a stored VM and 400 for one sent", async () => {
    await fixture.client.resource(vmKind).create(sizedVm("orphan", "it-gone"));
    const stored = await fixture.call("GET", subresourcePath("virtualmachines", "orphan", "expand-spec"));
    assert.equal(stored.code, 500, stored.body);
    assert.equal(
      message(stored),
      'Internal error occurred: virtualmachineclusterinstancetypes.instancetype.kubevirt.io "it-gone" not found',
    );
    const conflicting = sizedVm("conflicting");
    const domain = conflicting.spec.template.spec?.domain;
    if (domain) domain.memory = { guest: "2Gi" };
    const sent = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(conflicting) });
    assert.equal(sent.code, 400, sent.body);
    assert.equal(
      message(sent),
      "VM field(s) spec.template.spec.domain.memory.guest conflicts with selected instance type",
    );
    const missing = await fixture.call("GET", subresourcePath("virtualmachines", "nowhere", "expand-spec"));
    assert.equal(missing.code, 404, missing.body);
  });

  test("a revisionName that names a revision of something else is refused, by expand and by admission", async () => {
    await fixture.client.resource(controllerRevisionKind).create({
      apiVersion: "apps/v1",
      kind: "ControllerRevision",
      metadata: { name: "someones-daemonset-1", namespace: TEST_NAMESPACE },
      data: {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        spec: { cpu: { guest: 64 }, memory: { guest: "1Ti" } },
      },
      revision: 1,
    });
    const vm = sizedVm("wrong-revision");
    vm.spec.instancetype = {
      ...vm.spec.instancetype,
      name: "it-small",
      revisionName: "someones-daemonset-1",
    };
    const expanded = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(vm) });
    assert.equal(expanded.code, 400, expanded.body);
    assert.equal(
      message(expanded),
      "ControllerRevision someones-daemonset-1 does not hold a valid VirtualMachineClusterInstancetype",
    );
    const review = await fixture.call("POST", WEBHOOK_PATHS.vmValidate, {
      certificate: null,
      body: JSON.stringify({
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: "wrong-revision",
          operation: "CREATE",
          object: { apiVersion: "kubevirt.io/v1", kind: "VirtualMachine", ...vm },
        },
      }),
    });
    const response = (review.json as { response: AdmissionResponse }).response;
    assert.equal(response.allowed, false);
    assert.deepEqual(
      response.status?.details?.causes.map((cause) => [cause.field, cause.message]),
      [
        [
          "spec.instancetype.revisionName",
          "ControllerRevision someones-daemonset-1 does not hold a valid VirtualMachineClusterInstancetype",
        ],
      ],
    );
  });

  test("a matcher that cannot be expanded here is a 400 saying why, never dropped unexpanded", async () => {
    const inferring = sizedVm("inferring");
    inferring.spec.instancetype = { inferFromVolume: "rootdisk" };
    const inferred = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(inferring) });
    assert.equal(inferred.code, 400, inferred.body);
    assert.match(message(inferred), /spec\.instancetype\.inferFromVolume is resolved when the VM is created/);
    const unknownKind = sizedVm("unknown-kind");
    unknownKind.spec.instancetype = { name: "it-small", kind: "Flavor" };
    const unknown = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(unknownKind) });
    assert.equal(unknown.code, 400, unknown.body);
    assert.equal(message(unknown), "got unexpected kind in InstancetypeMatcher: Flavor");
  });

  test("a body that is no VirtualMachine, or one of another namespace, is a 400", async () => {
    const notVm = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify({ spec: 5 }) });
    assert.equal(notVm.code, 400, notVm.body);
    assert.equal(message(notVm), "Object is not a valid VirtualMachine");
    assert.ok(((notVm.json as { details?: { causes?: unknown[] } }).details?.causes ?? []).length > 0);
    const empty = await fixture.call("PUT", EXPAND_VM_SPEC, { body: "" });
    assert.equal(empty.code, 400, empty.body);
    const elsewhere = sizedVm("elsewhere");
    elsewhere.metadata = { ...elsewhere.metadata, namespace: "other" };
    const wrong = await fixture.call("PUT", EXPAND_VM_SPEC, { body: JSON.stringify(elsewhere) });
    assert.equal(wrong.code, 400, wrong.body);
    assert.equal(message(wrong), `VM namespace must be empty or ${TEST_NAMESPACE}`);
  });

  test("RBAC decides: a user without the verbs gets 403 naming them", async () => {
    const bob = { user: "bob", groups: ["system:authenticated"] };
    const get = await fixture.call("GET", subresourcePath("virtualmachines", "stored", "expand-spec"), bob);
    assert.equal(get.code, 403, get.body);
    assert.match(message(get), /User "bob" cannot get resource "virtualmachines\/expand-spec"/);
    const put = await fixture.call("PUT", EXPAND_VM_SPEC, { ...bob, body: JSON.stringify(sizedVm("x")) });
    assert.equal(put.code, 403, put.body);
    assert.match(
      message(put),
      /User "bob" cannot update resource "expand-vm-spec" in API group "subresources.kubevirt.io" in the namespace "default"/,
    );
  });

  test("discovery lists expand-vm-spec and virtualmachines/expand-spec", async () => {
    const answer = await fixture.call("GET", "/apis/subresources.kubevirt.io/v1");
    const names = (answer.json as { resources: { name: string }[] }).resources.map((entry) => entry.name);
    assert.ok(names.includes("expand-vm-spec"), names.join());
    assert.ok(names.includes("virtualmachines/expand-spec"), names.join());
  });
});
