import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ContainerDiskError } from "./container-disk-source.js";
import { LocalImageStore } from "./local-image-store.js";

async function writeManifest(storeDir: string, entry: string, manifest: unknown): Promise<string> {
  const dir = join(storeDir, entry);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "manifest.json"),
    typeof manifest === "string" ? manifest : JSON.stringify(manifest),
  );
  return dir;
}

async function rejectsWith(promise: Promise<unknown>, reason: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ContainerDiskError, `a ContainerDiskError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    assert.match(error.message, message);
    return true;
  });
}

describe("LocalImageStore", () => {
  let storeDir: string;
  let store: LocalImageStore;

  before(async () => {
    storeDir = await mkdtemp(join(tmpdir(), "image-store-"));
    store = new LocalImageStore(storeDir);
    await writeManifest(storeDir, "guest:latest", {
      schemaVersion: 1,
      reference: "localhost/guest:latest",
      digest: "sha256:00",
      created: "2024-01-01T00:00:00Z",
      disk: { path: "/disk/disk.qcow2", format: "qcow2" },
      kernel: { path: "/boot/vmlinuz" },
      initrd: { path: "/boot/initramfs.gz" },
      kernelArgs: "console=ttyS0",
    });
    await writeManifest(storeDir, "team/raw-only:v1", {
      schemaVersion: 1,
      disk: { path: "disk/a.img", format: "raw" },
    });
    await writeManifest(storeDir, "broken:json", "{not json");
    await writeManifest(storeDir, "broken:version", { schemaVersion: 2 });
    await writeManifest(storeDir, "broken:escape", {
      schemaVersion: 1,
      kernel: { path: "/../../etc/passwd" },
    });
    await writeManifest(storeDir, "broken:empty-component", {
      schemaVersion: 1,
      disk: { path: "/disk//disk.img", format: "raw" },
    });
    await writeManifest(storeDir, "broken:disk", {
      schemaVersion: 1,
      disk: { path: "/disk/x", format: "vmdk" },
    });
  });

  after(() => rm(storeDir, { recursive: true, force: true }));

  test("resolves an image to its rootfs/ and the manifest's paths inside it, with the default tag latest", async () => {
    const expected = {
      root: join(storeDir, "guest:latest", "rootfs"),
      disk: "/disk/disk.qcow2",
      diskFormat: "qcow2",
      kernel: "/boot/vmlinuz",
      initrd: "/boot/initramfs.gz",
      kernelArgs: "console=ttyS0",
    };
    assert.deepEqual(await store.resolve("localhost/guest"), expected);
    assert.deepEqual(await store.resolve("localhost/guest:latest"), expected);
  });

  test("names with slashes and other tags; only what the manifest names, in one spelling", async () => {
    assert.deepEqual(await store.resolve("localhost/team/raw-only:v1"), {
      root: join(storeDir, "team/raw-only:v1", "rootfs"),
      disk: "/disk/a.img",
      diskFormat: "raw",
    });
  });

  test("a missing image, a missing tag, another registry: ImageNotFound", async () => {
    await rejectsWith(
      store.resolve("localhost/nothing:latest"),
      "ImageNotFound",
      /not in the local image store/,
    );
    await rejectsWith(store.resolve("localhost/guest:v2"), "ImageNotFound", /localhost\/guest:v2/);
    await rejectsWith(
      store.resolve("quay.io/containerdisks/cirros:latest"),
      "ImageNotFound",
      /only localhost\/NAME:TAG images/,
    );
    await rejectsWith(store.resolve("localhost/UPPER:latest"), "ImageNotFound", /only localhost/);
    await rejectsWith(store.resolve("localhost/guest@sha256:00"), "ImageNotFound", /only localhost/);
  });

  test("a malformed manifest or a path leaving the image: InvalidImage", async () => {
    await rejectsWith(store.resolve("localhost/broken:json"), "InvalidImage", /is not JSON/);
    await rejectsWith(store.resolve("localhost/broken:version"), "InvalidImage", /unknown schemaVersion 2/);
    await rejectsWith(store.resolve("localhost/broken:escape"), "InvalidImage", /leaves the image/);
    await rejectsWith(
      store.resolve("localhost/broken:empty-component"),
      "InvalidImage",
      /the path \/disk\/\/disk.img has an empty or . component/,
    );
    await rejectsWith(store.resolve("localhost/broken:disk"), "InvalidImage", /qcow2\|raw/);
  });
});
