// The instancetype webhooks over HTTPS: an instancetype kubevirt-ts cannot honour yet is admitted and a
// VM of it denied with the reason; a VM that sets what its instancetype sets is denied with KubeVirt's
// message and path (virt-api reads the instancetype from the API server); a VM whose instancetype
// does not exist yet is allowed.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { clusterInstancetypeKind, WEBHOOK_PATHS } from "../../api/index.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "./admission-review.js";

describe("virt-api: instancetype admission", () => {
  let fixture: VirtApiFixture;
  let uid = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
    await fixture.client.resource(clusterInstancetypeKind).create({
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterInstancetype",
      metadata: { name: "u1.small" },
      spec: { cpu: { guest: 1 }, memory: { guest: "2Gi" } },
    });
  });
  after(() => fixture.close());

  async function review(path: string, object: unknown): Promise<AdmissionResponse> {
    uid += 1;
    const body = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: `it-${uid}`, operation: "CREATE", object },
    };
    const answer = await fixture.call("POST", path, { certificate: null, body: JSON.stringify(body) });
    assert.equal(answer.code, 200, answer.body);
    return (answer.json as { response: AdmissionResponse }).response;
  }

  const vm = (instancetype: string, domain: Record<string, unknown> = {}) => ({
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: { name: "vm-sized", namespace: "default" },
    spec: {
      runStrategy: "Always",
      instancetype: { name: instancetype },
      template: {
        spec: {
          domain: { devices: { disks: [{ name: "root", disk: {} }] }, ...domain },
          volumes: [{ name: "root", containerDisk: { image: "localhost/test-guest:latest" } }],
        },
      },
    },
  });

  test("a VM sized by its instancetype is allowed; one that sets the memory too is denied with the path", async () => {
    assert.equal((await review(WEBHOOK_PATHS.vmValidate, vm("u1.small"))).allowed, true);
    const denied = await review(WEBHOOK_PATHS.vmValidate, vm("u1.small", { memory: { guest: "1Gi" } }));
    assert.equal(denied.allowed, false);
    assert.equal(
      denied.status?.message,
      "VM field(s) spec.template.spec.domain.memory.guest conflicts with selected instance type",
    );
    assert.deepEqual(
      denied.status?.details?.causes.map((cause) => cause.field),
      ["spec.template.spec.domain.memory.guest"],
    );
  });

  test("a VM whose instancetype does not exist yet is allowed (virt-controller waits for it)", async () => {
    assert.equal(
      (await review(WEBHOOK_PATHS.vmValidate, vm("u1.later", { memory: { guest: "1Gi" } }))).allowed,
      true,
    );
  });

  test("an instancetype with dedicated CPUs is admitted, as KubeVirt's cx1 must be; a VM of it is denied: not supported yet", async () => {
    const dedicated = {
      apiVersion: "instancetype.kubevirt.io/v1beta1",
      kind: "VirtualMachineClusterInstancetype",
      metadata: { name: "cx1.medium" },
      spec: { cpu: { guest: 1, dedicatedCPUPlacement: true }, memory: { guest: "2Gi" } },
    };
    assert.equal((await review(WEBHOOK_PATHS.clusterInstancetypeValidate, dedicated)).allowed, true);
    await fixture.client.resource(clusterInstancetypeKind).create(dedicated);
    const denied = await review(WEBHOOK_PATHS.vmValidate, vm("cx1.medium"));
    assert.equal(denied.allowed, false);
    assert.match(
      denied.status?.message ?? "",
      /cx1\.medium: spec\.cpu\.dedicatedCPUPlacement: dedicated CPU placement is not supported yet/,
    );
    assert.deepEqual(
      denied.status?.details?.causes.map((cause) => cause.field),
      ["spec.instancetype"],
    );
  });
});
