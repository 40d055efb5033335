import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type ImageProgram, resolveImage } from "./image-map.js";

const map = new Map<string, ImageProgram>([
  ["virt-launcher", { command: ["sleep", "infinity"] }],
  ["quay.io/kubevirt/virt-handler", { command: ["node", "handler.js"] }],
  ["quay.io/kubevirt/virt-handler:v2", { command: ["node", "handler-v2.js"] }],
  ["busybox:1.36", { command: ["sh"] }],
]);

describe("image map", () => {
  test("an exact image wins, then the longest prefix of the image or of its name", () => {
    assert.equal(resolveImage(map, "busybox:1.36")?.key, "busybox:1.36");
    assert.equal(
      resolveImage(map, "quay.io/kubevirt/virt-handler:v1.3")?.key,
      "quay.io/kubevirt/virt-handler",
    );
    assert.equal(
      resolveImage(map, "quay.io/kubevirt/virt-handler:v2")?.key,
      "quay.io/kubevirt/virt-handler:v2",
    );
    assert.equal(resolveImage(map, "localhost:5000/kubevirt/virt-launcher@sha256:abc")?.key, "virt-launcher");
    assert.equal(resolveImage(map, "docker.io/library/nginx"), undefined);
  });

  test("the image ID is a stable digest of the program", () => {
    const first = resolveImage(map, "virt-launcher:dev")?.imageID;
    assert.match(first ?? "", /^kubevirt-ts\.local\/virt-launcher@sha256:[0-9a-f]{64}$/);
    assert.equal(resolveImage(map, "virt-launcher:other")?.imageID, first);
  });
});
