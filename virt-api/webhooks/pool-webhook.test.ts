// The VirtualMachinePool validating webhook over HTTPS: KubeVirt's vm-pool-cirros example is
// allowed, what the pool controller does not do yet is denied with its field path, and the
// selector may not change after creation (KubeVirt's pool admitter).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import { ADMISSION_WEBHOOKS, WEBHOOK_PATHS, webhookRuleGroup } from "../../api/index.js";
import { REPOSITORY_ROOT } from "../../api/testing/testdata.js";
import { startVirtApiFixture, type VirtApiFixture } from "../testing/virt-api-fixture.js";
import type { AdmissionResponse } from "./admission-review.js";

interface PoolManifest {
  metadata: { name: string; namespace?: string };
  spec: Record<string, unknown> & { selector: unknown };
}

function examplePool(): PoolManifest {
  const text = readFileSync(join(REPOSITORY_ROOT, "examples", "vm-pool-cirros-shaped.yaml"), "utf8");
  const pool = parse(text) as PoolManifest;
  pool.metadata.namespace = "default";
  return pool;
}

describe("virt-api: the VirtualMachinePool webhook", () => {
  let fixture: VirtApiFixture;
  let uid = 0;

  before(async () => {
    fixture = await startVirtApiFixture();
  });
  after(() => fixture.close());

  async function review(request: { operation: string; object: unknown; oldObject?: unknown }) {
    uid += 1;
    const body = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: { uid: `pool-${uid}`, ...request },
    };
    const answer = await fixture.call("POST", WEBHOOK_PATHS.vmPoolValidate, {
      certificate: null,
      body: JSON.stringify(body),
    });
    assert.equal(answer.code, 200, answer.body);
    return (answer.json as { response: AdmissionResponse }).response;
  }

  const fields = (response: AdmissionResponse) =>
    (response.status?.details?.causes ?? []).map((cause) => cause.field);

  test("is registered for pool.kubevirt.io/v1beta1 virtualmachinepools, on CREATE and UPDATE", () => {
    const webhook = ADMISSION_WEBHOOKS.find((candidate) => candidate.path === WEBHOOK_PATHS.vmPoolValidate);
    assert.equal(webhook?.name, "virtualmachinepool-validator.kubevirt.io");
    assert.deepEqual(webhook && webhookRuleGroup(webhook), { group: "pool.kubevirt.io", version: "v1beta1" });
    assert.deepEqual(webhook?.operations, ["CREATE", "UPDATE"]);
  });

  test("KubeVirt's vm-pool-cirros example is allowed", async () => {
    assert.equal((await review({ operation: "CREATE", object: examplePool() })).allowed, true);
  });

  test("a template the VM rules refuse, or a field not supported yet, is denied with its path", async () => {
    const pool = examplePool();
    pool.spec.updateStrategy = { proactive: {} };
    const template = pool.spec.virtualMachineTemplate as { spec: Record<string, unknown> };
    delete template.spec.runStrategy;
    const response = await review({ operation: "CREATE", object: pool });
    assert.equal(response.allowed, false);
    assert.equal(response.status?.code, 422);
    assert.deepEqual(fields(response).sort(), [
      "spec.updateStrategy.proactive",
      "spec.virtualMachineTemplate.spec.runStrategy",
    ]);
  });

  test("the selector is immutable; a scale (replicas) is not refused", async () => {
    const before = examplePool();
    const scaled = examplePool();
    scaled.spec.replicas = 1;
    assert.equal((await review({ operation: "UPDATE", object: scaled, oldObject: before })).allowed, true);
    const reselected = examplePool();
    reselected.spec.selector = { matchLabels: { other: "x" } };
    const template = reselected.spec.virtualMachineTemplate as {
      metadata: { labels: Record<string, string> };
    };
    template.metadata.labels = { other: "x" };
    const response = await review({ operation: "UPDATE", object: reselected, oldObject: before });
    assert.equal(response.allowed, false);
    assert.deepEqual(fields(response), ["spec.selector"]);
  });
});
