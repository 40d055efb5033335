import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { pruneUnknown } from "../../dev-cluster/apiserver/crd/pruning.js";
import { validateValue } from "../../dev-cluster/apiserver/crd/schema-validation.js";
import type { JsonObject } from "../../dev-cluster/apiserver/json.js";
import { buildCrd, rootSchema } from "../crd/crd-builder.js";
import { VirtualMachinePoolKind } from "../pool/virtual-machine-pool.js";
import { REPOSITORY_ROOT } from "../testing/testdata.js";
import { validatePoolSelectorUnchanged, validateVirtualMachinePool } from "./pool-validation.js";

function example(): JsonObject {
  const text = readFileSync(join(REPOSITORY_ROOT, "examples", "vm-pool-cirros-shaped.yaml"), "utf8");
  return parse(text) as JsonObject;
}

function withSpec(edit: (spec: Record<string, unknown>) => void): JsonObject {
  const pool = example();
  edit(pool.spec as Record<string, unknown>);
  return pool;
}

function fieldsOf(value: unknown): string[] {
  return validateVirtualMachinePool(value).map((cause) => cause.field);
}

describe("VirtualMachinePool validation", () => {
  test("KubeVirt's vm-pool-cirros example is valid as written", () => {
    assert.deepEqual(validateVirtualMachinePool(example()), []);
  });

  test("it passes the emitted CRD schema and loses no field to pruning", () => {
    const schema = rootSchema(VirtualMachinePoolKind) as JsonObject;
    const manifest = example();
    assert.deepEqual(validateValue(manifest, schema, ""), []);
    const copy = structuredClone(manifest);
    assert.deepEqual(pruneUnknown(copy, schema, true), []);
    assert.deepEqual(copy, manifest);
  });

  test("the CRD: pool.kubevirt.io/v1beta1, vmpool, scale subresource, KubeVirt's columns", () => {
    const crd = buildCrd(VirtualMachinePoolKind) as {
      metadata: { name: string };
      spec: { group: string; names: { shortNames: string[] }; versions: Record<string, unknown>[] };
    };
    assert.equal(crd.metadata.name, "virtualmachinepools.pool.kubevirt.io");
    assert.equal(crd.spec.group, "pool.kubevirt.io");
    assert.ok(crd.spec.names.shortNames.includes("vmpool"));
    const version = crd.spec.versions[0] as {
      name: string;
      subresources: { scale: Record<string, string> };
      additionalPrinterColumns: { name: string }[];
    };
    assert.equal(version.name, "v1beta1");
    assert.deepEqual(version.subresources.scale, {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".status.labelSelector",
    });
    assert.deepEqual(
      version.additionalPrinterColumns.map((column) => column.name),
      ["Desired", "Current", "Ready", "Age"],
    );
  });

  test("the template is checked with the VM rules, under spec.virtualMachineTemplate.spec", () => {
    const pool = withSpec((spec) => {
      const template = spec.virtualMachineTemplate as { spec: Record<string, unknown> };
      delete template.spec.runStrategy;
    });
    assert.deepEqual(fieldsOf(pool), ["spec.virtualMachineTemplate.spec.runStrategy"]);
  });

  test("a selector that does not match the template's labels is refused", () => {
    const pool = withSpec((spec) => {
      spec.selector = { matchLabels: { other: "x" } };
    });
    const causes = validateVirtualMachinePool(pool);
    assert.deepEqual(
      causes.map((cause) => [cause.field, cause.message]),
      [["spec.selector", "selector does not match labels."]],
    );
  });

  test("what the pool controller does not do yet is refused, with its field path", () => {
    const pool = withSpec((spec) => {
      spec.maxUnavailable = 1;
      spec.autohealing = {};
      spec.updateStrategy = { proactive: {} };
      spec.scaleInStrategy = { proactive: { statePreservation: "Offline" } };
    });
    const causes = validateVirtualMachinePool(pool);
    assert.deepEqual(causes.map((cause) => cause.field).sort(), [
      "spec.autohealing",
      "spec.maxUnavailable",
      "spec.scaleInStrategy.proactive.statePreservation",
      "spec.updateStrategy.proactive",
    ]);
    for (const cause of causes) assert.match(cause.message, /is not supported yet: /);
  });

  test("what it does is accepted: sort policies, selectors, unmanaged, opportunistic, nameGeneration", () => {
    const pool = withSpec((spec) => {
      spec.nameGeneration = { appendIndexToConfigMapRefs: true, appendIndexToSecretRefs: true };
      spec.updateStrategy = { opportunistic: {} };
      spec.scaleInStrategy = {
        proactive: {
          statePreservation: "Disabled",
          selectionPolicy: {
            sortPolicy: "DescendingOrder",
            selectors: { labelSelector: { matchLabels: { a: "b" } } },
          },
        },
      };
    });
    assert.deepEqual(validateVirtualMachinePool(pool), []);
    const unmanaged = withSpec((spec) => {
      spec.scaleInStrategy = { unmanaged: {} };
    });
    assert.deepEqual(validateVirtualMachinePool(unmanaged), []);
  });

  test("two strategies at once are refused", () => {
    const pool = withSpec((spec) => {
      spec.scaleInStrategy = { unmanaged: {}, opportunistic: {} };
    });
    assert.deepEqual(fieldsOf(pool), ["spec.scaleInStrategy"]);
  });

  test("the selector is immutable after creation", () => {
    const before = example().spec;
    const after = structuredClone(before) as { selector: unknown };
    assert.deepEqual(validatePoolSelectorUnchanged(before, structuredClone(before)), []);
    after.selector = { matchLabels: { x: "y" } };
    assert.deepEqual(
      validatePoolSelectorUnchanged(after, before).map((cause) => cause.message),
      ["selector is immutable after creation."],
    );
  });
});
