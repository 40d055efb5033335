import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { operatorIdentityFromImage } from "./operator-image.js";

describe("the operator's identity from VIRT_OPERATOR_IMAGE", () => {
  const cases: [string, string, string][] = [
    ["ghcr.io/kubevirt-ts/virt-operator:v0.1.0", "ghcr.io/kubevirt-ts", "v0.1.0"],
    ["localhost:5000/kubevirt-ts/virt-operator:v1", "localhost:5000/kubevirt-ts", "v1"],
    ["localhost/virt-operator:dev", "localhost", "dev"],
    ["registry.example.com:443/a/b/virt-operator:1.2.3-rc.1", "registry.example.com:443/a/b", "1.2.3-rc.1"],
    [`ghcr.io/kubevirt-ts/virt-operator:v0.1.0@sha256:${"a".repeat(64)}`, "ghcr.io/kubevirt-ts", "v0.1.0"],
    ["  ghcr.io/kubevirt-ts/virt-operator:v2  ", "ghcr.io/kubevirt-ts", "v2"],
  ];
  for (const [image, registry, version] of cases) {
    test(image.trim(), () => {
      assert.deepEqual(operatorIdentityFromImage(image, "kubevirt"), {
        namespace: "kubevirt",
        registry,
        version,
      });
    });
  }

  test("missing or empty: says what to set", () => {
    assert.throws(() => operatorIdentityFromImage(undefined, "kubevirt"), /VIRT_OPERATOR_IMAGE is not set/);
    assert.throws(() => operatorIdentityFromImage(" ", "kubevirt"), /VIRT_OPERATOR_IMAGE is not set/);
  });

  test("no tag (a port is not a tag; a digest alone is not a version)", () => {
    assert.throws(
      () => operatorIdentityFromImage("ghcr.io/kubevirt-ts/virt-operator", "kubevirt"),
      /has no tag/,
    );
    assert.throws(() => operatorIdentityFromImage("localhost:5000/virt-operator", "kubevirt"), /has no tag/);
    assert.throws(
      () =>
        operatorIdentityFromImage(`ghcr.io/kubevirt-ts/virt-operator@sha256:${"b".repeat(64)}`, "kubevirt"),
      /has no tag/,
    );
  });

  test("an invalid tag, or no registry", () => {
    assert.throws(() => operatorIdentityFromImage("ghcr.io/x/virt-operator:", "kubevirt"), /invalid tag ""/);
    assert.throws(() => operatorIdentityFromImage("ghcr.io/x/virt-operator:.bad", "kubevirt"), /invalid tag/);
    assert.throws(() => operatorIdentityFromImage("virt-operator:v1", "kubevirt"), /names no registry/);
  });
});
