import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StoredVirtualMachine, StoredVirtualMachinePool } from "../../api/index.js";
import { deepFreeze } from "../../runtime/index.js";
import {
  freeIndexes,
  indexedVmSpec,
  indexOfPoolVm,
  POOL_TEMPLATE_HASH_ANNOTATION,
  renderPoolVm,
  templateHash,
} from "./pool-vm.js";
import { scaleInCandidates } from "./scale-in-order.js";

function pool(extra: Partial<StoredVirtualMachinePool["spec"]> = {}): StoredVirtualMachinePool {
  return {
    apiVersion: "pool.kubevirt.io/v1beta1",
    kind: "VirtualMachinePool",
    metadata: { name: "web", namespace: "default", uid: "pool-uid" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      virtualMachineTemplate: {
        metadata: { labels: { app: "web" }, annotations: { note: "kept" } },
        spec: {
          runStrategy: "Always",
          dataVolumeTemplates: [{ metadata: { name: "root" }, spec: { source: { blank: {} } } }],
          template: {
            spec: {
              domain: { devices: {} },
              volumes: [
                { name: "root", dataVolume: { name: "root" } },
                { name: "claim", persistentVolumeClaim: { claimName: "root" } },
                { name: "other", persistentVolumeClaim: { claimName: "shared" } },
                { name: "config", configMap: { name: "settings" } },
                { name: "secret", secret: { secretName: "keys" } },
                { name: "init", cloudInitNoCloud: { secretRef: { name: "userdata" } } },
              ],
            },
          },
        },
      },
      ...extra,
    },
  };
}

function vm(name: string, created: string, nodeSelector: Record<string, string> = {}): StoredVirtualMachine {
  return {
    metadata: { name, namespace: "default", creationTimestamp: created },
    spec: {
      runStrategy: "Always",
      template: { metadata: { labels: { app: "web" } }, spec: { nodeSelector } },
    },
  } as unknown as StoredVirtualMachine;
}

describe("a pool's VMs", () => {
  test("are named <pool>-<index>, the lowest free indexes first", () => {
    const taken = new Set(["web-0", "web-2"]);
    assert.deepEqual(
      freeIndexes("web", 3, (name) => taken.has(name)),
      [1, 3, 4],
    );
    assert.equal(indexOfPoolVm("web-pool-12"), 12);
    assert.equal(indexOfPoolVm("web-x"), undefined);
  });

  test("get the template's dataVolumeTemplates renamed <name>-<index>, and the volumes on them rewritten", () => {
    const spec = indexedVmSpec(deepFreeze(pool()).spec, 3);
    assert.equal(spec.dataVolumeTemplates?.[0]?.metadata?.name, "root-3");
    const volumes = spec.template.spec?.volumes ?? [];
    assert.equal(volumes[0]?.dataVolume?.name, "root-3");
    assert.equal(volumes[1]?.persistentVolumeClaim?.claimName, "root-3");
    assert.equal(volumes[2]?.persistentVolumeClaim?.claimName, "shared", "not a template's: unchanged");
    assert.equal(volumes[3]?.configMap?.name, "settings", "no nameGeneration: unchanged");
    assert.equal(volumes[4]?.secret?.secretName, "keys");
  });

  test("nameGeneration suffixes ConfigMap and Secret references (cloud-init's secretRef too)", () => {
    const spec = indexedVmSpec(
      deepFreeze(
        pool({ nameGeneration: { appendIndexToConfigMapRefs: true, appendIndexToSecretRefs: true } }),
      ).spec,
      1,
    );
    const volumes = spec.template.spec?.volumes ?? [];
    assert.equal(volumes[3]?.configMap?.name, "settings-1");
    assert.equal(volumes[4]?.secret?.secretName, "keys-1");
    assert.equal(volumes[5]?.cloudInitNoCloud?.secretRef?.name, "userdata-1");
  });

  test("carry the template's labels and annotations, the template hash, a controller owner and the finalizer", () => {
    const frozen = deepFreeze(pool());
    const made = renderPoolVm(frozen, 0);
    assert.equal(made.metadata?.name, "web-0");
    assert.deepEqual(made.metadata?.labels, { app: "web" });
    assert.equal(made.metadata?.annotations?.note, "kept");
    assert.equal(made.metadata?.annotations?.[POOL_TEMPLATE_HASH_ANNOTATION], templateHash(frozen.spec));
    assert.deepEqual(made.metadata?.finalizers, ["pool.kubevirt.io/finalizer"]);
    const owner = made.metadata?.ownerReferences?.[0];
    assert.equal(owner?.apiVersion, "pool.kubevirt.io/v1beta1");
    assert.equal(owner?.controller, true);
    assert.equal(owner?.uid, "pool-uid");
  });

  test("the template hash changes with the template, not with replicas", () => {
    const base = templateHash(pool().spec);
    assert.equal(templateHash(pool({ replicas: 5 }).spec), base);
    const edited = pool();
    edited.spec.virtualMachineTemplate.spec.runStrategy = "Halted";
    assert.notEqual(templateHash(edited.spec), base);
  });
});

describe("scale-in order", () => {
  const vms = deepFreeze([
    vm("web-0", "2026-01-01T00:00:02Z", { zone: "a" }),
    vm("web-1", "2026-01-01T00:00:01Z", { zone: "b" }),
    vm("web-2", "2026-01-01T00:00:03Z", { zone: "a" }),
  ]);
  const names = (list: readonly { readonly metadata?: { readonly name?: string } }[]) =>
    list.map((each) => each.metadata?.name);
  const withPolicy = (sortPolicy: "AscendingOrder" | "DescendingOrder" | "Newest" | "Oldest") =>
    deepFreeze(pool({ scaleInStrategy: { proactive: { selectionPolicy: { sortPolicy } } } }));

  test("sort policies order by index or by age", () => {
    assert.deepEqual(names(scaleInCandidates(withPolicy("AscendingOrder"), vms, Math.random)), [
      "web-0",
      "web-1",
      "web-2",
    ]);
    assert.deepEqual(names(scaleInCandidates(withPolicy("DescendingOrder"), vms, Math.random)), [
      "web-2",
      "web-1",
      "web-0",
    ]);
    assert.deepEqual(names(scaleInCandidates(withPolicy("Newest"), vms, Math.random)), [
      "web-2",
      "web-0",
      "web-1",
    ]);
    assert.deepEqual(names(scaleInCandidates(withPolicy("Oldest"), vms, Math.random)), [
      "web-1",
      "web-0",
      "web-2",
    ]);
  });

  test("the default is KubeVirt's random order, of the VMs not already being deleted", () => {
    const deleting = deepFreeze([
      ...vms.slice(0, 2),
      { ...vm("web-2", ""), metadata: { name: "web-2", deletionTimestamp: "2026-01-01T00:00:04Z" } },
    ]);
    const picked = names(scaleInCandidates(deepFreeze(pool()), deleting, () => 0));
    assert.deepEqual([...picked].sort(), ["web-0", "web-1"]);
  });

  test("selectors narrow the candidates (the template's nodeSelector for node requirements)", () => {
    const selective = deepFreeze(
      pool({
        scaleInStrategy: {
          proactive: {
            selectionPolicy: {
              sortPolicy: "AscendingOrder",
              selectors: { nodeSelectorRequirementMatcher: [{ key: "zone", operator: "In", values: ["a"] }] },
            },
          },
        },
      }),
    );
    assert.deepEqual(names(scaleInCandidates(selective, vms, Math.random)), ["web-0", "web-2"]);
  });
});
