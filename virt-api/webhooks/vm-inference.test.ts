// Inference at the VM mutating webhook over HTTPS, reading the claims and DataVolumes from the API
// server: a VM that infers from a labelled claim is patched to name its instancetype and preference;
// a claim without the label refuses it with KubeVirt's 400 and message, unless its policy is Ignore
// (the matcher is dropped); a matcher that also names what inference writes gets KubeVirt's causes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fastJsonPatch, { type Operation } from "fast-json-patch";
import { dataVolumeKind, type StoredDataVolume, WEBHOOK_PATHS } from "../../api/index.js";
import { persistentVolumeClaimKind } from "../../runtime/index.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "./admission-review.js";

const NAMESPACE = "default";

interface SentVm {
  spec: {
    instancetype?: Record<string, unknown>;
    preference?: Record<string, unknown>;
    template: { spec: { domain: { memory?: unknown } } };
  };
}

describe("virt-api: inferFromVolume at VM admission", () => {
  let fixture: VirtApiFixture;
  let uid = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
    const claim = (name: string, labels: Record<string, string>) =>
      fixture.client.resource(persistentVolumeClaimKind).create({
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name, namespace: NAMESPACE, labels },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      });
    await claim("fedora-root", {
      "instancetype.kubevirt.io/default-instancetype": "u1.small",
      "instancetype.kubevirt.io/default-preference": "fedora",
      "instancetype.kubevirt.io/default-preference-kind": "VirtualMachinePreference",
    });
    await claim("plain-root", {});
    await fixture.client.resource(dataVolumeKind).create({
      metadata: {
        name: "labelled-dv",
        namespace: NAMESPACE,
        labels: { "instancetype.kubevirt.io/default-instancetype": "u1.medium" },
      },
      spec: { source: { blank: {} }, storage: { resources: { requests: { storage: "1Gi" } } } },
    } as StoredDataVolume);
  });
  after(() => fixture.close());

  async function mutate(object: SentVm): Promise<AdmissionResponse> {
    uid += 1;
    const body = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: `infer-${uid}`, operation: "CREATE", object },
    };
    const answer = await fixture.call("POST", WEBHOOK_PATHS.vmMutate, {
      certificate: null,
      body: JSON.stringify(body),
    });
    assert.equal(answer.code, 200, answer.body);
    return (answer.json as { response: AdmissionResponse }).response;
  }

  function patchedVm(sent: SentVm, response: AdmissionResponse): SentVm {
    assert.equal(response.allowed, true, JSON.stringify(response.status));
    if (response.patch === undefined) return sent;
    const operations = JSON.parse(Buffer.from(response.patch, "base64").toString("utf8")) as Operation[];
    return fastJsonPatch.applyPatch(structuredClone(sent), operations, true, false).newDocument;
  }

  const vm = (
    matchers: { instancetype?: Record<string, unknown>; preference?: Record<string, unknown> },
    volume: Record<string, unknown> = { persistentVolumeClaim: { claimName: "fedora-root" } },
  ): SentVm =>
    ({
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachine",
      metadata: { name: "vm-inferred", namespace: NAMESPACE },
      spec: {
        runStrategy: "Always",
        ...matchers,
        template: {
          spec: {
            domain: { devices: { disks: [{ name: "root", disk: {} }] }, memory: { guest: "512Mi" } },
            volumes: [{ name: "root", ...volume }],
          },
        },
      },
    }) as SentVm;

  test("a labelled claim fills in the instancetype and preference, kinds defaulted or as labelled", async () => {
    const sent = vm({ instancetype: { inferFromVolume: "root" }, preference: { inferFromVolume: "root" } });
    const mutated = patchedVm(sent, await mutate(sent));
    assert.deepEqual(mutated.spec.instancetype, {
      name: "u1.small",
      kind: "VirtualMachineClusterInstancetype",
    });
    assert.deepEqual(mutated.spec.preference, { name: "fedora", kind: "VirtualMachinePreference" });
    const fromDataVolume = vm(
      { instancetype: { inferFromVolume: "root" } },
      { dataVolume: { name: "labelled-dv" } },
    );
    assert.equal(
      patchedVm(fromDataVolume, await mutate(fromDataVolume)).spec.instancetype?.name,
      "u1.medium",
    );
  });

  test("a claim without the label refuses the VM with KubeVirt's message", async () => {
    const response = await mutate(
      vm(
        { instancetype: { inferFromVolume: "root" } },
        { persistentVolumeClaim: { claimName: "plain-root" } },
      ),
    );
    assert.equal(response.allowed, false);
    assert.equal(response.status?.code, 400);
    assert.equal(
      response.status?.message,
      "unable to find required instancetype.kubevirt.io/default-instancetype label on the volume",
    );
  });

  test("under Ignore the matcher is dropped and the VM keeps its own memory", async () => {
    const sent = vm(
      { instancetype: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" } },
      { persistentVolumeClaim: { claimName: "plain-root" } },
    );
    const mutated = patchedVm(sent, await mutate(sent));
    assert.equal(mutated.spec.instancetype, undefined);
    assert.deepEqual(mutated.spec.template.spec.domain.memory, { guest: "512Mi" });
  });

  test("a matcher that names the instancetype and infers it too is refused with the field", async () => {
    const response = await mutate(vm({ instancetype: { inferFromVolume: "root", name: "u1.small" } }));
    assert.equal(response.allowed, false);
    assert.deepEqual(
      response.status?.details?.causes.map((cause) => [cause.field, cause.message]),
      [["spec.instancetype.name", "Name already set, should be cleared before setting inferFromVolume"]],
    );
  });

  test("a missing claim refuses the VM whatever the policy", async () => {
    const response = await mutate(
      vm(
        { preference: { inferFromVolume: "root", inferFromVolumeFailurePolicy: "Ignore" } },
        { persistentVolumeClaim: { claimName: "gone" } },
      ),
    );
    assert.equal(response.allowed, false);
    assert.equal(response.status?.message, 'persistentvolumeclaims "gone" not found');
  });
});
