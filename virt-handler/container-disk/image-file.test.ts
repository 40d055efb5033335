// openImageFile with real files: regular files inside the image open; symbolic links (to a host file, to
// a directory, even within the image), FIFOs, devices and directories are refused before anything reads
// them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ContainerDiskError } from "./container-disk-source.js";
import { openImageFile } from "./image-file.js";

const IMAGE = "localhost/files:v1";

describe("openImageFile", () => {
  let workDir: string;
  let root: string;
  let hostFile: string;

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "image-file-"));
    hostFile = join(workDir, "host-secret");
    await writeFile(hostFile, "host secret\n");
    root = join(workDir, "store/files:v1/rootfs");
    await mkdir(join(root, "disk"), { recursive: true });
    await mkdir(join(root, "boot"));
    await writeFile(join(root, "disk/disk.img"), "disk content");
    await symlink(hostFile, join(root, "disk/to-host.img"));
    await symlink("disk.img", join(root, "disk/to-sibling.img"));
    await symlink("/", join(root, "host"));
    await symlink("disk", join(root, "disk-link"));
    execFileSync("mkfifo", [join(root, "disk/fifo.img")]);
    if (process.getuid?.() === 0) execFileSync("mknod", [join(root, "disk/null.img"), "c", "1", "3"]);
    await symlink(join(workDir, "store"), join(workDir, "store-link"));
    await mkdir(join(workDir, "linked-root"));
    await mkdir(join(workDir, "store/rootfs-link:v1"));
    await symlink(join(workDir, "linked-root"), join(workDir, "store/rootfs-link:v1/rootfs"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("opens a regular file inside the image, by its real path", async () => {
    const file = await openImageFile({ image: IMAGE, root, pathInImage: "/disk/disk.img", what: "disk" });
    try {
      assert.equal(file.hostPath, join(await realpath(root), "disk/disk.img"));
      assert.ok(file.stats.isFile());
      assert.equal((await file.handle.readFile()).toString(), "disk content");
    } finally {
      await file.handle.close();
    }
  });

  test("the store itself may be reached through a link the admin made", async () => {
    const linkedRoot = join(workDir, "store-link/files:v1/rootfs");
    const file = await openImageFile({
      image: IMAGE,
      root: linkedRoot,
      pathInImage: "disk/disk.img",
      what: "disk",
    });
    await file.handle.close();
    assert.equal(file.hostPath, join(await realpath(root), "disk/disk.img"));
  });

  const refused: Array<[string, string, RegExp]> = [
    [
      "a symbolic link to a host file",
      "/disk/to-host.img",
      /the disk \/disk\/to-host.img is a symbolic link/,
    ],
    ["a symbolic link that stays inside", "/disk/to-sibling.img", /is a symbolic link, not a regular file/],
    ["a path through a link to /", "/host/etc/hostname", /\/host is a symbolic link, not a directory/],
    ["a path through a link to a directory", "/disk-link/disk.img", /\/disk-link is a symbolic link/],
    ["a FIFO", "/disk/fifo.img", /is a FIFO, not a regular file/],
    ["a directory", "/disk", /is a directory, not a regular file/],
    ["a file used as a directory", "/disk/disk.img/x", /\/disk\/disk.img is a regular file, not a directory/],
    ["a missing file", "/disk/missing.img", /the disk \/disk\/missing.img is not in the image/],
    ["a .. path", "/disk/../../../../host-secret", /leaves the image/],
  ];
  for (const [what, pathInImage, message] of refused) {
    test(`refuses ${what}`, async () => {
      await assert.rejects(
        openImageFile({ image: IMAGE, root, pathInImage, what: "disk" }),
        (error: unknown) => {
          assert.ok(error instanceof ContainerDiskError, `a ContainerDiskError, got ${String(error)}`);
          assert.equal(error.reason, "InvalidImage");
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test("refuses a device", async (t) => {
    if (process.getuid?.() !== 0) return t.skip("mknod needs root");
    await assert.rejects(
      openImageFile({ image: IMAGE, root, pathInImage: "/disk/null.img", what: "disk" }),
      /is a device, not a regular file/,
    );
  });

  test("refuses a path that fits PATH_MAX only without the image's root", async () => {
    // 4085 bytes as text (under PATH_MAX), over it once under the root's ~40-byte host path.
    const pathInImage = `/${Array.from({ length: 19 }, () => "d".repeat(214)).join("/")}`;
    await assert.rejects(
      openImageFile({ image: IMAGE, root, pathInImage, what: "disk" }),
      /is too long a path on this node/,
    );
  });

  test("refuses an image whose rootfs is itself a symbolic link", async () => {
    await assert.rejects(
      openImageFile({
        image: IMAGE,
        root: join(workDir, "store/rootfs-link:v1/rootfs"),
        pathInImage: "/x",
        what: "disk",
      }),
      /has no file system directory/,
    );
  });

  test("the host file is unchanged", async () => {
    assert.equal(await readFile(hostFile, "utf8"), "host secret\n");
  });
});
