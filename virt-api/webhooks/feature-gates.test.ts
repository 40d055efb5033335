// The validating webhooks refuse feature-gated fields while the KubeVirt CR leaves their gate off,
// and accept them once a cluster admin enables it (read live from the CR, no restart).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { WEBHOOK_PATHS } from "../../api/index.js";
import { loadTestManifest } from "../../api/testing/testdata.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { kubeVirtKind } from "../kinds.js";
import { NAMESPACE, startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "./admission-review.js";

function vmiWithHostDisk(): unknown {
  const vmi = structuredClone(loadTestManifest("vmi-emptydisk.yaml")) as {
    metadata: Record<string, unknown>;
    spec: { volumes: unknown[]; domain: { devices: { disks: unknown[] } } };
  };
  vmi.metadata = { name: "vmi-host", namespace: "tenant" };
  vmi.spec.volumes.push({ name: "host", hostDisk: { path: "/root/secret.img", type: "Disk" } });
  vmi.spec.domain.devices.disks.push({ name: "host", disk: { bus: "virtio" } });
  return vmi;
}

describe("virt-api: feature-gated fields", () => {
  let fixture: VirtApiFixture;
  let uid = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  async function validate(object: unknown, oldObject?: unknown): Promise<AdmissionResponse> {
    uid += 1;
    const request = { uid: `gate-${uid}`, operation: oldObject ? "UPDATE" : "CREATE", object, oldObject };
    const body = { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request };
    const answer = await fixture.call("POST", WEBHOOK_PATHS.vmiValidate, {
      certificate: null,
      body: JSON.stringify(body),
    });
    assert.equal(answer.code, 200, answer.body);
    return (answer.json as { response: AdmissionResponse }).response;
  }

  test("hostDisk: refused naming the gate and the volume's field until HostDisk is enabled", async () => {
    const vmi = vmiWithHostDisk();
    const refused = await validate(vmi);
    assert.equal(refused.allowed, false);
    assert.equal(refused.status?.code, 422);
    assert.deepEqual(refused.status?.details?.causes, [
      {
        reason: "FieldValueInvalid",
        message: "HostDisk feature gate is not enabled",
        field: "spec.volumes[3]",
      },
    ]);
    assert.match(refused.status?.message ?? "", /HostDisk feature gate is not enabled/);

    // Status and label writes of a VMI stored earlier are never refused for a rule (same spec).
    const relabelled = structuredClone(vmi) as { metadata: Record<string, unknown> };
    relabelled.metadata.labels = { a: "b" };
    assert.equal((await validate(relabelled, vmi)).allowed, true);

    const kubevirts = fixture.client.resource(kubeVirtKind);
    await kubevirts.create({
      metadata: { name: "kubevirt", namespace: NAMESPACE },
      spec: { configuration: { developerConfiguration: { featureGates: ["HostDisk"] } } },
    });
    await eventually("virt-api to see the HostDisk gate", async () =>
      (await validate(vmi)).allowed ? true : undefined,
    );

    // disabledFeatureGates wins over featureGates, as in KubeVirt.
    await kubevirts.mergePatch(
      { namespace: NAMESPACE, name: "kubevirt" },
      { spec: { configuration: { developerConfiguration: { disabledFeatureGates: ["HostDisk"] } } } },
    );
    await eventually("virt-api to see HostDisk disabled", async () =>
      (await validate(vmi)).allowed ? undefined : true,
    );
  });
});
