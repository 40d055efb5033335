// RegistryImageSource against Debian's real docker-registry: images pushed with test/oci-image, pulled
// over plain http through a hosts.toml directory, unpacked into a real cache directory. What is pulled
// and what is refused; registry-image-source-cache.test.ts covers endpoints, sharing and the cache.
import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { rawTar } from "../../oci-registry/testing/raw-tar.js";
import { buildIndex, LINUX_AMD64, LINUX_ARM64 } from "../../test/oci-image/index.js";
import type { RegistryImageSourceOptions } from "./registry-image-source.js";
import {
  blobDataPath,
  diskEntries,
  imageOf,
  imageSources,
  push,
  qcow2File,
  type RegistryFixture,
  rawLayer,
  refusedWith,
  startRegistryFixture,
} from "./testing/registry-fixture.js";

const DISK = Buffer.alloc(64 * 1024, "d");

describe("RegistryImageSource", { timeout: 180_000 }, () => {
  let fixture: RegistryFixture;
  let host: string;
  const newSource = imageSources(() => fixture);
  const source = async (options: Partial<RegistryImageSourceOptions> = {}) => newSource(options);
  const diskOf = async (root: string, disk: string | undefined) => readFile(join(root, disk ?? "missing"));

  before(async () => {
    fixture = await startRegistryFixture();
    host = fixture.registry.address;
  });
  after(() => fixture?.stop());

  for (const compression of ["none", "gzip", "zstd"] as const) {
    it(`pulls a ${compression} containerDisk`, async () => {
      await push(
        fixture,
        `disks/${compression}`,
        "v1",
        await imageOf([{ entries: diskEntries("disk.img", DISK), compression }]),
      );
      const images = await source();
      const image = await images.resolve(`${host}/disks/${compression}:v1`);
      assert.equal(image.disk, "/disk/disk.img");
      assert.equal(image.diskFormat, "raw");
      assert.deepEqual(await diskOf(image.root, image.disk), DISK);
      assert.equal((await stat(join(image.root, "disk/disk.img"))).mode & 0o777, 0o444);
      assert.equal((await stat(join(image.root, "disk"))).mode & 0o777, 0o555);
      const record = JSON.parse(await readFile(join(image.root, "..", "image.json"), "utf8"));
      assert.equal(record.reference, `${host}/disks/${compression}:v1`);
      assert.equal(record.disk, "/disk/disk.img");
    });
  }

  it("pulls a Docker-format qcow2 image with several layers and whiteouts", async () => {
    const qcow2 = await qcow2File(fixture.work, "plain.qcow2");
    const image = await imageOf(
      [
        { entries: [...diskEntries("old.img", DISK), { path: "etc/", type: "dir" }] },
        {
          entries: [
            { path: "disk/.wh.old.img", type: "file" },
            { path: "disk/disk.qcow2", type: "file", content: await readFile(qcow2) },
          ],
        },
      ],
      { format: "docker" },
    );
    await push(fixture, "disks/docker", "v1", image);
    const resolved = await (await source()).resolve(`${host}/disks/docker:v1`);
    assert.deepEqual([resolved.disk, resolved.diskFormat], ["/disk/disk.qcow2", "qcow2"]);
    assert.deepEqual(await readdir(join(resolved.root, "disk")), ["disk.qcow2"]);
  });

  it("accepts non-distributable layers and refuses layers that are not tar", async () => {
    const nondistributable = "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd";
    const entries = diskEntries("disk.img", Buffer.from("foreign"));
    await push(
      fixture,
      "disks/foreign",
      "v1",
      await imageOf([{ entries, compression: "zstd", mediaType: nondistributable }]),
    );
    const image = await (await source()).resolve(`${host}/disks/foreign:v1`);
    assert.equal((await diskOf(image.root, image.disk)).toString(), "foreign");
    await push(
      fixture,
      "disks/bzip",
      "v1",
      await imageOf([{ entries, mediaType: "application/vnd.oci.image.layer.v1.tar+bzip2" }]),
    );
    await assert.rejects(
      (await source()).resolve(`${host}/disks/bzip:v1`),
      refusedWith("InvalidImage", /layer 1: the layer media type .*tar\+bzip2.* is not a tar layer/),
    );
  });

  it("picks linux/amd64 from a (nested) index", async () => {
    const arm = await imageOf([{ entries: diskEntries("disk.img", Buffer.from("arm64")) }], {
      platform: LINUX_ARM64,
    });
    const amd = await imageOf([{ entries: diskEntries("disk.img", Buffer.from("amd64")) }], {
      platform: LINUX_AMD64,
    });
    await push(fixture, "disks/multi", "v1", buildIndex([arm, buildIndex([amd], { format: "docker" })]));
    const image = await (await source({ architecture: "amd64" })).resolve(`${host}/disks/multi:v1`);
    assert.equal((await diskOf(image.root, image.disk)).toString(), "amd64");
    await assert.rejects(
      (await source({ architecture: "s390x" })).resolve(`${host}/disks/multi:v1`),
      refusedWith("ImagePullFailed", /no linux\/s390x image \(it has linux\/amd64\)/),
    );
  });

  it("refuses a blob whose bytes do not match its digest", async () => {
    const image = await imageOf([
      { entries: diskEntries("disk.img", Buffer.alloc(50_000, "tampered")), compression: "none" },
    ]);
    await push(fixture, "disks/tampered", "v1", image);
    const layer = image.kind === "manifest" ? image.layers[0] : undefined;
    assert.ok(layer);
    const data = blobDataPath(fixture, layer.digest);
    const bytes = await readFile(data);
    bytes[bytes.length - 2000] = 0x41;
    await writeFile(data, bytes);
    const cache = join(fixture.work, "cache-tampered");
    const images = await source({ cacheDirectory: cache });
    await assert.rejects(
      images.resolve(`${host}/disks/tampered:v1`),
      refusedWith("ImagePullFailed", /has digest sha256:/),
    );
    assert.deepEqual(await readdir(join(cache, "images")), []);
    assert.deepEqual(await readdir(join(cache, "tmp")), []);
  });

  it("keeps the registry's error text for unknown manifests and repositories", async () => {
    await assert.rejects(
      (await source()).resolve(`${host}/disks/absent:v1`),
      refusedWith("ImagePullFailed", /(name|manifest) unknown/),
    );
    await assert.rejects(
      (await source()).resolve(`${host}/disks/gzip:nope`),
      refusedWith("ImagePullFailed", /manifest unknown/),
    );
  });

  const hostile: [string, () => Promise<Parameters<typeof imageOf>[0]>, RegExp][] = [
    [
      "a name with ..",
      async () => [{ entries: [{ path: "../escape", type: "file", content: DISK }] }],
      /leaves the image's root/,
    ],
    [
      "an absolute name",
      async () => [{ entries: [{ path: "/etc/x", type: "file", content: DISK }] }],
      /absolute path/,
    ],
    [
      "a disk that is a symbolic link",
      async () => [
        {
          entries: [
            { path: "disk/", type: "dir" },
            { path: "disk/disk.img", type: "symlink", linkTarget: "/etc/shadow" },
          ],
        },
      ],
      /the disk \/disk\/disk.img is a symbolic link to \/etc\/shadow/,
    ],
    [
      "a disk that is a hard link to outside",
      async () => [
        {
          entries: [
            { path: "disk/", type: "dir" },
            { path: "disk/disk.img", type: "hardlink", linkTarget: "../../etc/shadow" },
          ],
        },
      ],
      /hard link \/disk\/disk.img to \.\.\/\.\.\/etc\/shadow leaves the image's root/,
    ],
    [
      "a device in /disk",
      async () => [
        rawLayer(
          rawTar([
            { name: "disk/", type: "5" },
            { name: "disk/sda", type: "4" },
          ]),
        ),
      ],
      /\/disk\/sda is a block-device/,
    ],
    [
      "a FIFO in /disk",
      async () => [rawLayer(rawTar([{ name: "disk/fifo", type: "6" }]))],
      /\/disk\/fifo is a fifo/,
    ],
    [
      "two files in /disk",
      async () => [
        { entries: [...diskEntries("a.img", DISK), { path: "disk/b.img", type: "file", content: DISK }] },
      ],
      /more than one file found in folder \/disk, only one disk is allowed/,
    ],
    [
      "no /disk",
      async () => [{ entries: [{ path: "boot/vmlinuz", type: "file", content: DISK }] }],
      /no file found in folder \/disk, no disk present/,
    ],
    [
      "a qcow2 with a backing file",
      async () => [
        {
          entries: diskEntries(
            "disk.qcow2",
            await readFile(await qcow2File(fixture.work, `b-${Date.now()}.qcow2`, "/dev/sda")),
          ),
        },
      ],
      /backing file/,
    ],
  ];
  for (const [what, layers, why] of hostile) {
    it(`refuses an image with ${what}`, async () => {
      const repository = `hostile/${what.replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "")}`;
      await push(fixture, repository, "v1", await imageOf(await layers()));
      await assert.rejects(
        (await source()).resolve(`${host}/${repository}:v1`),
        refusedWith("InvalidImage", why),
      );
    });
  }

  it("refuses an image unpacking to more than the limit, while unpacking", async () => {
    await push(
      fixture,
      "hostile/big",
      "v1",
      await imageOf([{ entries: diskEntries("disk.img", Buffer.alloc(300_000)), compression: "zstd" }]),
    );
    const images = await source({ maxUnpackedBytes: 100_000 });
    await assert.rejects(
      images.resolve(`${host}/hostile/big:v1`),
      refusedWith("InvalidImage", /unpacks to more than 100000 bytes/),
    );
  });

  it("uses containerDisk.path and kernelBoot's / instead of /disk", async () => {
    const entries = [
      { path: "boot/vmlinuz", type: "file" as const, content: Buffer.from("kernel") },
      { path: "images/root.img", type: "file" as const, content: DISK },
      { path: "images/link.img", type: "symlink" as const, linkTarget: "root.img" },
    ];
    await push(fixture, "kernels/k", "v1", await imageOf([{ entries }]));
    const images = await source();
    const whole = await images.resolve(`${host}/kernels/k:v1`, { path: "/" });
    assert.equal(whole.disk, undefined);
    assert.equal((await readFile(join(whole.root, "boot/vmlinuz"))).toString(), "kernel");
    const custom = await images.resolve(`${host}/kernels/k:v1`, { path: "images/root.img" });
    assert.deepEqual([custom.disk, custom.diskFormat], ["/images/root.img", "raw"]);
    await assert.rejects(
      images.resolve(`${host}/kernels/k:v1`, { path: "/images/link.img" }),
      refusedWith("InvalidImage", /symbolic link to root.img/),
    );
    await assert.rejects(
      images.resolve(`${host}/kernels/k:v1`),
      refusedWith("InvalidImage", /no file found in folder \/disk/),
    );
  });
});
