import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { containerDiskImage, kernelBootImage } from "./container-disk-image.js";
import { MEDIA_TYPES } from "./media-types.js";
import { LINUX_ARM64 } from "./oci-image.js";
import { TarWriteError } from "./tar-writer.js";

function listing(layerBytes: Buffer): string[] {
  const tar = gunzipSync(layerBytes);
  return execFileSync("tar", ["-tv", "--numeric-owner", "-f", "-"], { input: tar })
    .toString("utf8")
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/ +/g, " "));
}

describe("containerDiskImage and kernelBootImage", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "container-disk-image-"));
    await writeFile(join(dir, "fedora.qcow2"), Buffer.alloc(1000, 1));
    await writeFile(join(dir, "vmlinuz-6.1"), Buffer.alloc(300, 2));
    await writeFile(join(dir, "initrd-6.1"), Buffer.alloc(200, 3));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("puts the disk alone in /disk, owned by 107:107, as `ADD --chown=107:107 x /disk/` does", async () => {
    const image = await containerDiskImage({ disk: join(dir, "fedora.qcow2"), format: "docker" });
    assert.equal(image.mediaType, MEDIA_TYPES.docker.manifest);
    assert.equal(image.layers.length, 1);
    const content = image.layers[0]?.content;
    assert.ok(Buffer.isBuffer(content), "without blobDir the layer is in memory");
    const lines = listing(content);
    assert.equal(lines.length, 2);
    assert.match(lines[0] ?? "", /^drwxr-xr-x 107\/107 0 .* disk\/$/);
    assert.match(lines[1] ?? "", /^-rw-r--r-- 107\/107 1000 .* disk\/fedora\.qcow2$/);
  });

  it("names the file as asked and builds for another platform", async () => {
    const image = await containerDiskImage({
      disk: join(dir, "fedora.qcow2"),
      fileName: "disk.img",
      platform: LINUX_ARM64,
    });
    const config = JSON.parse((image.config.content as Buffer).toString("utf8")) as Record<string, unknown>;
    assert.equal(config.architecture, "arm64");
    assert.equal(config.variant, "v8");
    assert.match(listing(image.layers[0]?.content as Buffer)[1] ?? "", / disk\/disk\.img$/);
  });

  it("fails with the tar writer's reason for a missing disk, for each compression", async () => {
    for (const compression of ["gzip", "zstd", "none"] as const) {
      await assert.rejects(
        containerDiskImage({ disk: join(dir, "missing.qcow2"), compression }),
        (error: unknown) => error instanceof TarWriteError && error.reason === "ContentMissing",
      );
    }
  });

  it("puts kernel and initrd at /boot/vmlinuz and /boot/initrd.img", async () => {
    const image = await kernelBootImage({
      kernel: join(dir, "vmlinuz-6.1"),
      initrd: join(dir, "initrd-6.1"),
    });
    const lines = listing(image.layers[0]?.content as Buffer);
    assert.deepEqual(
      lines.map((line) => line.split(" ").slice(1, 3).concat(line.split(" ").slice(-1)).join(" ")),
      ["107/107 0 boot/", "107/107 300 boot/vmlinuz", "107/107 200 boot/initrd.img"],
    );
  });
});
