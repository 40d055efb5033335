import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pino } from "pino";
import { buildImage, layerFromEntries } from "../../test/oci-image/oci-image.js";
import { pushImage } from "../../test/oci-image/push-image.js";
import { MIRRORED_HOSTS, startDevRegistry } from "./dev-registry.js";

describe("startDevRegistry", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "dev-registry-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs the registry under <data dir>/registry and mirrors KubeVirt's registries to it", async () => {
    // A host left from an earlier start that is no longer mirrored must go.
    await mkdir(join(dir, "registry-hosts", "old.example"), { recursive: true });
    const registry = await startDevRegistry({
      dataDir: dir,
      address: "127.0.0.1:0",
      log: pino({ level: "silent" }),
    });
    try {
      assert.equal((await readFile(join(dir, "registry", "address"), "utf8")).trim(), registry.address);
      assert.equal(registry.hostsDir, join(dir, "registry-hosts"));
      assert.deepEqual((await readdir(registry.hostsDir)).sort(), [...MIRRORED_HOSTS].sort());
      const quay = await readFile(join(registry.hostsDir, "quay.io", "hosts.toml"), "utf8");
      assert.match(quay, new RegExp(`^server = "http://${registry.address}"$`, "m"));
      // KubeVirt's examples name their cluster registry registry:5000: it is this one too.
      const kubevirtCi = await readFile(join(registry.hostsDir, "registry:5000", "hosts.toml"), "utf8");
      assert.match(kubevirtCi, new RegExp(`^server = "http://${registry.address}"$`, "m"));
      assert.match(registry.banner, new RegExp(`image registry: http://${registry.address}`));

      // A stand-in for a KubeVirt image goes in under the name the manifests use.
      const layer = await layerFromEntries([{ path: "x", type: "file", content: Buffer.from("x") }], {
        compression: "gzip",
      });
      const image = buildImage({ layers: [layer] });
      await pushImage({
        registry: registry.address,
        repository: "kubevirt/virt-launcher",
        tag: "v1.6.0",
        image,
      });
      const got = await fetch(`${registry.url}/v2/kubevirt/virt-launcher/manifests/v1.6.0`, {
        headers: { accept: image.mediaType },
      });
      assert.equal(got.headers.get("docker-content-digest"), image.digest);
    } finally {
      await registry.stop();
    }
  });

  it("says which flags help when the address is taken", async () => {
    const first = await startDevRegistry({
      dataDir: join(dir, "first"),
      address: "127.0.0.1:0",
      log: pino({ level: "silent" }),
    });
    try {
      await assert.rejects(
        startDevRegistry({
          dataDir: join(dir, "second"),
          address: first.address,
          log: pino({ level: "silent" }),
        }),
        /--registry-address 127\.0\.0\.1:0 or --no-registry/,
      );
    } finally {
      await first.stop();
    }
  });
});
