import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { activeKubeVirt, byKubeVirtAge } from "./active-kubevirt.js";

function kubevirt(
  name: string,
  created: string | undefined,
  extra: { namespace?: string; deleted?: boolean } = {},
) {
  return {
    metadata: {
      name,
      namespace: extra.namespace ?? "kubevirt",
      ...(created === undefined ? {} : { creationTimestamp: created }),
      ...(extra.deleted ? { deletionTimestamp: "2024-02-01T00:00:00Z" } : {}),
    },
  };
}

describe("activeKubeVirt", () => {
  test("two CRs: the oldest configures (KubeVirt refuses to deploy a second one)", () => {
    const chosen = activeKubeVirt(
      [kubevirt("second", "2024-01-02T00:00:00Z"), kubevirt("first", "2024-01-01T00:00:00Z")],
      "kubevirt",
    );
    assert.equal(chosen?.metadata.name, "first");
    assert.equal(activeKubeVirt([], "kubevirt"), undefined);
  });

  test("only the CRs of the namespace count", () => {
    const crs = [
      kubevirt("late", "2030-01-02T00:00:00Z"),
      kubevirt("elsewhere", "2029-01-01T00:00:00Z", { namespace: "other" }),
    ];
    assert.equal(activeKubeVirt(crs, "kubevirt")?.metadata.name, "late");
    assert.equal(activeKubeVirt(crs, "other")?.metadata.name, "elsewhere");
    assert.equal(activeKubeVirt(crs, "none"), undefined);
  });

  test("a CR being deleted configures nothing: the next one does, or none (KubeVirt's defaults)", () => {
    const deleting = kubevirt("first", "2024-01-01T00:00:00Z", { deleted: true });
    assert.equal(activeKubeVirt([deleting], "kubevirt"), undefined);
    const next = kubevirt("second", "2024-01-02T00:00:00Z");
    assert.equal(activeKubeVirt([deleting, next], "kubevirt"), next);
  });
});

describe("byKubeVirtAge", () => {
  test("by creation, then by name; a CR not yet stamped comes last", () => {
    const sorted = [
      kubevirt("unstamped", undefined),
      kubevirt("b", "2024-01-01T00:00:00Z"),
      kubevirt("newer", "2024-01-02T00:00:00Z"),
      kubevirt("a", "2024-01-01T00:00:00Z"),
    ].sort(byKubeVirtAge);
    assert.deepEqual(
      sorted.map((cr) => cr.metadata.name),
      ["a", "b", "newer", "unstamped"],
    );
  });
});
