// What `npm run images` builds, without building it: one image per Dockerfile under KubeVirt's
// names, every base image a Dockerfile pulls has a local stand-in (a bumped base without one would
// fail only on a machine that cannot pull), and loopback registries are pushed to over HTTP.
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { DEBIAN_BASE, NODE_BASE } from "./base-images.js";
import { baseImagesOf, components, imageName, isLoopbackRegistry } from "./component-images.js";

const ROOT = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));

describe("npm run images", () => {
  test("one image per Dockerfile, each of whose base images has a stand-in", async () => {
    const names = await components(ROOT);
    assert.deepEqual(names, [
      "cdi-importer",
      "virt-api",
      "virt-controller",
      "virt-handler",
      "virt-launcher",
      "virt-operator",
    ]);
    for (const component of names) {
      const bases = await baseImagesOf(ROOT, component);
      assert.ok(bases.length > 0, component);
      for (const base of bases) assert.ok([DEBIAN_BASE, NODE_BASE].includes(base), `${component}: ${base}`);
    }
    assert.deepEqual(await baseImagesOf(ROOT, "virt-launcher"), [DEBIAN_BASE], "scratch is no base to pull");
  });

  test("images are named REGISTRY/COMPONENT:TAG; loopback registries speak plain HTTP", () => {
    assert.equal(
      imageName("localhost:5000/kubevirt-ts/", "virt-api", "v1"),
      "localhost:5000/kubevirt-ts/virt-api:v1",
    );
    for (const registry of ["localhost:5000", "127.0.0.1:5000/kv", "[::1]:5000"])
      assert.ok(isLoopbackRegistry(registry), registry);
    for (const registry of ["ghcr.io/kubevirt-ts", "registry.example:5000", "localhost.example/kv"])
      assert.ok(!isLoopbackRegistry(registry), registry);
  });
});
