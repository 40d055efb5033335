import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  formatImageReference,
  type ImageManifest,
  imageFilePath,
  parseImageReference,
  publishImage,
  readStoredImage,
} from "./image-store.js";

describe("parseImageReference", () => {
  test("reads name and tag, defaulting the tag to latest", () => {
    assert.deepEqual(parseImageReference("localhost/kubevirt-ts-test-guest:latest"), {
      name: "kubevirt-ts-test-guest",
      tag: "latest",
    });
    assert.deepEqual(parseImageReference("localhost/team/guest"), { name: "team/guest", tag: "latest" });
    assert.equal(formatImageReference({ name: "a/b", tag: "v1.2" }), "localhost/a/b:v1.2");
  });

  for (const reference of [
    "quay.io/kubevirt/cirros:latest",
    "localhost/UPPER:x",
    "localhost/a:",
    "localhost/a@sha256:00",
  ]) {
    test(`rejects ${reference}`, () => {
      assert.throws(() => parseImageReference(reference), /not a local image reference/);
    });
  }
});

test("imageFilePath keeps paths inside the image", () => {
  assert.equal(imageFilePath("/store/x:1", "/disk/disk.qcow2"), "/store/x:1/rootfs/disk/disk.qcow2");
  assert.throws(() => imageFilePath("/store/x:1", "/boot/../../etc/passwd"), /leaves the image/);
});

describe("publishImage", () => {
  let dir: string;
  const manifest = (digest: string): ImageManifest => ({
    schemaVersion: 1,
    reference: "localhost/guest:v1",
    digest,
    created: "2025-01-01T00:00:00.000Z",
    disk: { path: "/disk/disk.qcow2", format: "qcow2" },
    kernel: { path: "/boot/vmlinuz" },
  });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "image-store-test-"));
    await writeFile(join(dir, "disk-a"), "disk A");
    await writeFile(join(dir, "disk-b"), "disk B");
    await writeFile(join(dir, "kernel"), "kernel");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const publish = (digest: string, disk: string) =>
    publishImage({
      storeDir: join(dir, "store"),
      manifest: manifest(digest),
      files: [
        { source: join(dir, disk), pathInImage: "/disk/disk.qcow2" },
        { source: join(dir, "kernel"), pathInImage: "/boot/vmlinuz" },
      ],
    });

  test("stores the files under rootfs/ with a manifest, and reads them back", async () => {
    const stored = await publish("sha256:aaa", "disk-a");
    assert.equal(stored.directory, join(dir, "store", "guest:v1"));
    assert.equal(await readFile(stored.disk ?? "", "utf8"), "disk A");
    assert.equal(await readFile(stored.kernel ?? "", "utf8"), "kernel");
    assert.equal(stored.initrd, undefined);
    const read = await readStoredImage(join(dir, "store"), "localhost/guest:v1");
    assert.deepEqual(read?.manifest, manifest("sha256:aaa"));
  });

  test("replaces the tag's content when the digest changes, leaving no staging directories", async () => {
    const stored = await publish("sha256:bbb", "disk-b");
    assert.equal(stored.manifest.digest, "sha256:bbb");
    assert.equal(await readFile(stored.disk ?? "", "utf8"), "disk B");
    assert.deepEqual(await readdir(join(dir, "store")), ["guest:v1"]);
  });

  test("leaves the image alone when the digest is the same", async () => {
    await writeFile(join(dir, "disk-b"), "changed, but same digest");
    const stored = await publish("sha256:bbb", "disk-b");
    assert.equal(await readFile(stored.disk ?? "", "utf8"), "disk B");
  });

  test("reads a missing image as undefined", async () => {
    assert.equal(await readStoredImage(join(dir, "store"), "localhost/other:v1"), undefined);
  });
});
