// pinImageFile with real files: the pinned file is the inode that was checked (a hard link of it), an
// existing pin is kept, and a file swapped for a symbolic link after the check is never pinned.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ContainerDiskError, openImageFile } from "../container-disk/index.js";
import { pinImageFile } from "./pin-image-file.js";

const IMAGE = "localhost/pin:v1";

describe("pinImageFile", () => {
  let workDir: string;
  let root: string;
  let vmDir: string;
  let hostFile: string;
  const open = (pathInImage: string) => () =>
    openImageFile({ image: IMAGE, root, pathInImage, what: "disk" });

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "pin-image-file-"));
    root = join(workDir, "rootfs");
    vmDir = join(workDir, "vm");
    hostFile = join(workDir, "host-secret");
    await mkdir(join(root, "disk"), { recursive: true });
    await mkdir(vmDir);
    await writeFile(hostFile, "host secret\n");
    await writeFile(join(root, "disk/disk.img"), "version 1");
    await writeFile(join(root, "disk/swapped.img"), "checked");
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("pins a hard link of the checked file; a second call keeps it without opening the image", async () => {
    const pinned = join(vmDir, "root.base");
    assert.deepEqual(await pinImageFile(pinned, open("/disk/disk.img")), { path: pinned, created: true });
    assert.equal((await stat(pinned)).ino, (await stat(join(root, "disk/disk.img"))).ino);
    // A new version published under the same name does not change what the VM has.
    await writeFile(join(root, "disk/disk.img.new"), "version 2");
    await rename(join(root, "disk/disk.img.new"), join(root, "disk/disk.img"));
    const again = await pinImageFile(pinned, () => assert.fail("the image must not be opened again"));
    assert.deepEqual(again, { path: pinned, created: false });
    assert.equal(await readFile(pinned, "utf8"), "version 1");
  });

  test("a file swapped for a symbolic link after the check is refused, and nothing is pinned", async () => {
    const pinned = join(vmDir, "swapped.base");
    const swapAfterCheck = async () => {
      const file = await open("/disk/swapped.img")();
      await rm(join(root, "disk/swapped.img"));
      await symlink(hostFile, join(root, "disk/swapped.img"));
      return file;
    };
    await assert.rejects(pinImageFile(pinned, swapAfterCheck), (error: unknown) => {
      assert.ok(error instanceof ContainerDiskError);
      assert.match(error.message, /\/disk\/swapped.img changed while it was pinned/);
      return true;
    });
    assert.deepEqual((await readdir(vmDir)).sort(), ["root.base"]);
    assert.equal(await readFile(hostFile, "utf8"), "host secret\n");
  });

  test("an existing pin that is not a regular file is refused", async () => {
    const pinned = join(vmDir, "link.base");
    await symlink(hostFile, pinned);
    await assert.rejects(pinImageFile(pinned, open("/disk/disk.img")), /exists and is not a regular file/);
  });
});
