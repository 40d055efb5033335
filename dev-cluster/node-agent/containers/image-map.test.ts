import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { type ImageProgram, loadNodeImages, resolveImage } from "./image-map.js";

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

  test("the node's built-in images are there whatever the file says, and the file may override them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kubevirt-ts-image-map-"));
    try {
      const path = join(dir, "images.json");
      writeFileSync(path, JSON.stringify({ images: { "virt-launcher": { command: ["sh"] } } }));
      const builtIn = {
        "local-path-provisioner": { command: ["node", "main.js"] },
        "virt-launcher": { command: ["x"] },
      };
      const images = await loadNodeImages(path, builtIn);
      assert.deepEqual(resolveImage(images, "kubevirt-ts.io/local-path-provisioner:dev")?.program.command, [
        "node",
        "main.js",
      ]);
      assert.deepEqual(images.get("virt-launcher")?.command, ["sh"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
