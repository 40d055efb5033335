// The admission webhooks over HTTPS, as the API server calls them: AdmissionReview v1 in and
// out, the uid echoed; the mutators' JSON patch, applied, is api/'s defaulting (with the KubeVirt
// CR's settings); the validators deny with 422 and the field paths.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fastJsonPatch, { type Operation } from "fast-json-patch";
import {
  ADMISSION_WEBHOOKS,
  clusterDefaultsFrom,
  defaultVirtualMachine,
  defaultVirtualMachineInstance,
  type VirtualMachine,
  type VirtualMachineInstance,
  WEBHOOK_PATHS,
} from "../../api/index.js";
import { loadTestManifest } from "../../api/testing/testdata.js";
import { eventually } from "../../test/harness/api-server-fixture.js";
import { kubeVirtKind } from "../kinds.js";
import { NAMESPACE, startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "./admission-review.js";

interface Review {
  operation: "CREATE" | "UPDATE" | "DELETE";
  object?: unknown;
  oldObject?: unknown;
}

describe("virt-api: admission webhooks", () => {
  let fixture: VirtApiFixture;
  let uid = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  /** Sends a review without a client certificate (the webhooks need no caller); returns the response. */
  async function review(path: string, request: Review): Promise<AdmissionResponse> {
    uid += 1;
    const body = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: `uid-${uid}`, ...request },
    };
    const answer = await fixture.call("POST", path, { certificate: null, body: JSON.stringify(body) });
    assert.equal(answer.code, 200, answer.body);
    const reviewed = answer.json as { apiVersion: string; kind: string; response: AdmissionResponse };
    assert.equal(reviewed.apiVersion, "admission.k8s.io/v1");
    assert.equal(reviewed.kind, "AdmissionReview");
    assert.equal(reviewed.response.uid, `uid-${uid}`, "the request's uid is echoed");
    return reviewed.response;
  }

  function applied(object: unknown, response: AdmissionResponse): unknown {
    assert.equal(response.allowed, true);
    if (response.patch === undefined) return object;
    assert.equal(response.patchType, "JSONPatch");
    const operations = JSON.parse(Buffer.from(response.patch, "base64").toString("utf8")) as Operation[];
    return fastJsonPatch.applyPatch(structuredClone(object), operations, true, false).newDocument;
  }

  const vm = (): VirtualMachine =>
    ({
      ...loadTestManifest("vm-cirros.yaml"),
      metadata: { name: "vm-cirros", namespace: "default" },
    }) as unknown as VirtualMachine;

  test("VM mutation: the patch turns the VM into api/'s defaulted VM; a defaulted VM gets no patch", async () => {
    const original = vm();
    const response = await review(WEBHOOK_PATHS.vmMutate, { operation: "CREATE", object: original });
    assert.ok(response.patch, "there is something to default");
    const expected = JSON.parse(JSON.stringify(defaultVirtualMachine(original)));
    assert.deepEqual(applied(original, response), expected);
    const again = await review(WEBHOOK_PATHS.vmMutate, {
      operation: "UPDATE",
      object: expected,
      oldObject: expected,
    });
    assert.equal(again.allowed, true);
    assert.equal(again.patch, undefined, "nothing left to change: no patch");
    assert.equal(again.patchType, undefined);
  });

  test("VMI mutation follows the KubeVirt CR's configuration, on CREATE only", async () => {
    const template = (defaultVirtualMachine(vm()).spec.template.spec ?? {}) as VirtualMachineInstance["spec"];
    const vmi = {
      apiVersion: "kubevirt.io/v1",
      kind: "VirtualMachineInstance",
      metadata: { name: "vmi-cirros", namespace: "default" },
      spec: structuredClone(template),
    };
    delete (vmi.spec.domain.resources as { requests?: unknown }).requests;
    vmi.spec.domain.memory = { guest: "128Mi" };
    const configuration = { cpuRequest: "250m", developerConfiguration: { memoryOvercommit: 150 } };
    await fixture.client
      .resource(kubeVirtKind)
      .create({ metadata: { name: "kubevirt", namespace: NAMESPACE }, spec: { configuration } });
    const expected = JSON.parse(
      JSON.stringify(
        defaultVirtualMachineInstance(vmi as VirtualMachineInstance, clusterDefaultsFrom(configuration)),
      ),
    );
    assert.equal(expected.spec.domain.resources.requests.cpu, "250m");
    await eventually("virt-api to default with the CR's cpuRequest", async () => {
      const response = await review(WEBHOOK_PATHS.vmiMutate, { operation: "CREATE", object: vmi });
      const mutated = applied(vmi, response);
      return JSON.stringify(mutated) === JSON.stringify(expected) ? true : undefined;
    });
    const update = await review(WEBHOOK_PATHS.vmiMutate, {
      operation: "UPDATE",
      object: vmi,
      oldObject: vmi,
    });
    assert.equal(update.patch, undefined, "a VMI is defaulted once, when created");
  });

  test("replica set mutation defaults the replica count", async () => {
    const replicaSet = loadTestManifest("vmirs-cirros.yaml") as { spec: { replicas?: number } };
    delete replicaSet.spec.replicas;
    const mutated = applied(
      replicaSet,
      await review(WEBHOOK_PATHS.vmirsMutate, { operation: "CREATE", object: replicaSet }),
    );
    assert.equal((mutated as { spec: { replicas: number } }).spec.replicas, 1);
  });

  test("VM validation denies with 422 and the field path; a valid VM is allowed", async () => {
    const invalid = vm();
    const disks = invalid.spec.template.spec?.domain.devices.disks ?? [];
    (disks[0] as { name: string }).name = "no-such-volume";
    const response = await review(WEBHOOK_PATHS.vmValidate, { operation: "CREATE", object: invalid });
    assert.equal(response.allowed, false);
    assert.equal(response.status?.code, 422);
    assert.equal(response.status?.reason, "Invalid");
    assert.match(response.status?.message ?? "", /spec\.template\.spec\.domain\.devices\.disks\[0\]\.name/);
    assert.ok(
      response.status?.details?.causes.some(
        (cause) => cause.field === "spec.template.spec.domain.devices.disks[0].name",
      ),
    );
    assert.equal(
      (await review(WEBHOOK_PATHS.vmValidate, { operation: "CREATE", object: vm() })).allowed,
      true,
    );
  });

  test("names and text that would escape on the node are denied, each at its field", async () => {
    const hostile = vm();
    hostile.metadata = { name: "v".repeat(190), namespace: "n".repeat(63) };
    const template = hostile.spec.template.spec;
    assert.ok(template);
    template.hostname = "guest\nuser-data: owned";
    const disks = template.domain.devices.disks ?? [];
    (disks[0] as { name: string }).name = "../../etc";
    (template.volumes?.[0] as { name: string }).name = "../../etc";
    template.domain.cpu = { model: "qemu64,+vmx" };
    const response = await review(WEBHOOK_PATHS.vmValidate, { operation: "CREATE", object: hostile });
    assert.equal(response.allowed, false);
    assert.equal(response.status?.code, 422);
    const fields = (response.status?.details?.causes ?? []).map((cause) => cause.field);
    for (const field of [
      "metadata.name",
      "spec.template.spec.hostname",
      "spec.template.spec.domain.devices.disks[0].name",
      "spec.template.spec.volumes[0].name",
      "spec.template.spec.domain.cpu.model",
    ]) {
      assert.ok(fields.includes(field), `${field} in ${JSON.stringify(fields)}`);
    }
  });

  test("an update that leaves the spec alone is allowed, whatever the spec; a changed one is checked", async () => {
    const invalid = vm();
    delete (invalid.spec as { running?: boolean }).running;
    const relabelled = { ...invalid, metadata: { ...invalid.metadata, labels: { new: "label" } } };
    assert.equal(
      (
        await review(WEBHOOK_PATHS.vmValidate, {
          operation: "UPDATE",
          object: relabelled,
          oldObject: invalid,
        })
      ).allowed,
      true,
    );
    const changed = await review(WEBHOOK_PATHS.vmValidate, {
      operation: "UPDATE",
      object: invalid,
      oldObject: vm(),
    });
    assert.equal(changed.allowed, false);
    assert.match(changed.status?.message ?? "", /RunStrategy must be specified/);
    assert.equal(
      (await review(WEBHOOK_PATHS.vmValidate, { operation: "DELETE", oldObject: invalid })).allowed,
      true,
    );
  });

  test("VMI, replica set and KubeVirt validation name their fields", async () => {
    const vmi = {
      metadata: { name: "bad", namespace: "default" },
      spec: { domain: { devices: {} }, volumes: [{ name: "orphan", emptyDisk: { capacity: "1Gi" } }] },
    };
    const vmiResponse = await review(WEBHOOK_PATHS.vmiValidate, { operation: "CREATE", object: vmi });
    assert.equal(vmiResponse.allowed, false);
    assert.ok((vmiResponse.status?.details?.causes ?? []).every((cause) => cause.field.startsWith("spec")));
    const kubevirt = {
      metadata: { name: "kubevirt", namespace: NAMESPACE },
      spec: { uninstallStrategy: "Sometimes" },
    };
    const kubevirtResponse = await review(WEBHOOK_PATHS.kubevirtValidate, {
      operation: "CREATE",
      object: kubevirt,
    });
    assert.equal(kubevirtResponse.allowed, false);
    assert.match(kubevirtResponse.status?.message ?? "", /spec\.uninstallStrategy/);
    const replicaSet = loadTestManifest("vmirs-cirros.yaml");
    assert.equal(
      (await review(WEBHOOK_PATHS.vmirsValidate, { operation: "CREATE", object: replicaSet })).allowed,
      true,
    );
  });

  test("a body that is not an AdmissionReview v1 is a 400 Status", async () => {
    const answer = await fixture.call("POST", WEBHOOK_PATHS.vmValidate, {
      certificate: null,
      body: '{"kind":"Pod"}',
    });
    assert.equal(answer.code, 400, answer.body);
    assert.equal((answer.json as { kind: string }).kind, "Status");
  });

  test("every webhook virt-operator will configure is served", async () => {
    for (const webhook of ADMISSION_WEBHOOKS) {
      const response = await review(webhook.path, { operation: "DELETE" });
      assert.equal(response.allowed, true, webhook.name);
    }
  });
});
