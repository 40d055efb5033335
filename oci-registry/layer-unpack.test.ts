import assert from "node:assert/strict";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import { type TarEntry, tarChunks } from "../test/oci-image/index.js";
import { LayerUnpacker, sealTree } from "./layer-unpack.js";
import { OciImageError } from "./oci-image-error.js";
import { readTar } from "./tar-reader.js";
import { chunked, type RawEntry, rawTar } from "./testing/raw-tar.js";

const file = (path: string, content = path): TarEntry => ({
  path,
  type: "file",
  content: Buffer.from(content),
});
const dir = (path: string): TarEntry => ({ path, type: "dir" });

async function tree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (directory: string) => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        out.push(`${relative(root, path)}/`);
        await walk(path);
      } else out.push(`${relative(root, path)}=${await readFile(path, "utf8")}`);
    }
  };
  await walk(root);
  return out.sort();
}

describe("LayerUnpacker", () => {
  const work: string[] = [];
  let root: string;
  let unpacker: LayerUnpacker;
  const layer = (entries: TarEntry[]) => unpacker.apply(readTar(tarChunks(entries)));
  const rawLayer = (entries: RawEntry[]) => unpacker.apply(readTar(chunked(rawTar(entries), 4096)));

  beforeEach(async () => {
    const base = await mkdtemp(join(tmpdir(), "layer-unpack-"));
    work.push(base);
    root = join(base, "rootfs");
    await mkdir(root);
    unpacker = new LayerUnpacker({
      image: "reg.local/test:1",
      root,
      maxUnpackedBytes: 10_000,
      strictDirectories: ["disk"],
    });
  });
  after(async () => {
    for (const base of work) await rm(base, { recursive: true, force: true });
  });

  it("applies layers in order: later entries replace earlier ones", async () => {
    await layer([
      dir("./disk/"),
      file("./disk/a.img", "one"),
      file("etc/conf"),
      dir("replaced"),
      file("replaced/x"),
      file("becomes-dir"),
    ]);
    await layer([file("disk/a.img", "two"), file("replaced", "now a file"), file("becomes-dir/inner")]);
    assert.deepEqual(await tree(root), [
      "becomes-dir/",
      "becomes-dir/inner=becomes-dir/inner",
      "disk/",
      "disk/a.img=two",
      "etc/",
      "etc/conf=etc/conf",
      "replaced=now a file",
    ]);
  });

  it("applies whiteouts and opaque directories to lower layers only", async () => {
    await layer([file("a/keep"), file("a/gone"), file("b/old1"), file("b/sub/old2"), file("c/old")]);
    await layer([
      file("b/new-before-marker"),
      file("b/sub/new"),
      file("a/.wh.gone"),
      file("b/.wh..wh..opq"),
      file("b/new-after-marker"),
      file("c/.wh.old"),
      file("c/old", "same layer"),
    ]);
    assert.deepEqual(await tree(root), [
      "a/",
      "a/keep=a/keep",
      "b/",
      "b/new-after-marker=b/new-after-marker",
      "b/new-before-marker=b/new-before-marker",
      "b/sub/",
      "b/sub/new=b/sub/new",
      "c/",
      "c/old=same layer",
    ]);
  });

  it("leaves symbolic links, devices and FIFOs out, remembering links", async () => {
    await layer([file("bin/tool"), { path: "bin/sh", type: "symlink", linkTarget: "/bin/busybox" }]);
    await rawLayer([
      { name: "dev/null", type: "3" },
      { name: "run/fifo", type: "6" },
      { name: "bin/tool", type: "6" },
    ]);
    assert.deepEqual(await tree(root), ["bin/", "dev/", "run/"]);
    assert.deepEqual([...unpacker.state.symlinks], [["/bin/sh", "/bin/busybox"]]);
    await layer([file("bin/.wh.sh")]);
    assert.equal(unpacker.state.symlinks.size, 0);
  });

  it("makes hard links to files of the image", async () => {
    await layer([file("disk/a.img", "data"), { path: "copy", type: "hardlink", linkTarget: "./disk/a.img" }]);
    const [a, b] = await Promise.all([lstat(join(root, "disk/a.img")), lstat(join(root, "copy"))]);
    assert.equal(a.ino, b.ino);
  });

  const hostile: [string, () => Promise<void>, RegExp][] = [
    [
      "a name with ..",
      () => layer([file("../escape")]),
      /layer 1: the entry \.\.\/escape leaves the image's root/,
    ],
    [
      "a name leaving after normalisation",
      () => layer([file("disk/../../x")]),
      /disk\/\.\.\/\.\.\/x leaves the image's root/,
    ],
    ["an absolute name", () => layer([file("/etc/passwd")]), /\/etc\/passwd is an absolute path/],
    [
      "a hard link to outside",
      () =>
        layer([dir("disk/"), { path: "disk/disk.img", type: "hardlink", linkTarget: "../../../etc/shadow" }]),
      /hard link \/disk\/disk.img to \.\.\/\.\.\/\.\.\/etc\/shadow leaves the image's root/,
    ],
    [
      "a hard link to a left-out symbolic link",
      () =>
        layer([
          { path: "s", type: "symlink", linkTarget: "/etc/shadow" },
          { path: "disk/d", type: "hardlink", linkTarget: "s" },
        ]),
      /hard link \/disk\/d names \/s, which is not a file of the image/,
    ],
    [
      "a device in /disk",
      () => rawLayer([{ name: "disk/sda", type: "4" }]),
      /\/disk\/sda is a block-device; only a regular file may be in \/disk/,
    ],
    ["a FIFO in /disk", () => rawLayer([{ name: "disk/fifo", type: "6" }]), /\/disk\/fifo is a fifo/],
    ["a sparse file in /disk", () => rawLayer([{ name: "disk/sparse", type: "S" }]), /unsupported type "S"/],
    [
      "a NUL in a (pax) name",
      () =>
        rawLayer([
          { name: "p", type: "x", content: Buffer.from("12 path=a\0b\n") },
          { name: "a", type: "0" },
        ]),
      /NUL/,
    ],
    [
      "more bytes than allowed (declared)",
      () => layer([{ path: "big", type: "file", content: Buffer.alloc(10_001) }]),
      /more than 10000 bytes/,
    ],
    [
      "more bytes than allowed (over several files and layers)",
      async () => {
        await layer([{ path: "a", type: "file", content: Buffer.alloc(6000) }]);
        await layer([{ path: "a", type: "file", content: Buffer.alloc(6000) }]);
      },
      /layer 2: the image unpacks to more than 10000 bytes/,
    ],
  ];
  for (const [what, run, why] of hostile) {
    it(`refuses ${what}`, async () => {
      await assert.rejects(
        run,
        (e: unknown) => e instanceof OciImageError && e.reason === "InvalidImage" && why.test(e.message),
      );
    });
  }

  it("counts bytes while writing: a lying size field is caught before the limit is passed", async () => {
    const archive = rawTar([{ name: "a", type: "0", content: Buffer.alloc(9000) }]);
    const parts = [archive, rawTar([{ name: "b", type: "0", content: Buffer.alloc(2000) }])];
    await assert.rejects(
      unpacker.apply(
        readTar(
          chunked(
            Buffer.concat([parts[0]?.subarray(0, -1024) ?? Buffer.alloc(0), parts[1] ?? Buffer.alloc(0)]),
            512,
          ),
        ),
      ),
      /more than 10000 bytes/,
    );
    assert.ok(unpacker.state.writtenBytes <= 10_000 + 512);
  });

  it("seals the tree read-only and counts each inode once", async () => {
    await layer([
      file("disk/a.img", "12345"),
      { path: "again", type: "hardlink", linkTarget: "disk/a.img" },
      file("x", "678"),
    ]);
    assert.equal(await sealTree(root), 8);
    assert.equal((await lstat(join(root, "disk/a.img"))).mode & 0o777, 0o444);
    assert.equal((await lstat(join(root, "disk"))).mode & 0o777, 0o555);
    assert.equal((await lstat(root)).mode & 0o777, 0o555);
  });
});
