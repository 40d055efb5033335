// A claim's disk.img on a real directory: made sparse at KubeVirt's size when missing, used as it is
// when present, and refused when it is a link or not a regular file (the directory is the user's).
import assert from "node:assert/strict";
import { lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { VmiConversionError } from "../converter/conversion-error.js";
import { type ClaimVolume, claimDiskSize, openClaimDisk } from "./claim-disk.js";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const options = { volumeName: "data", claimName: "my-claim", readOnly: false, filesystemOverhead: 0.06 };

function refusedWith(reason: string, message: RegExp) {
  return (error: unknown) =>
    error instanceof VmiConversionError && error.reason === reason && message.test(error.message);
}

describe("claim disks", () => {
  let root: string;
  let count = 0;
  const volume = async (sizes: Partial<ClaimVolume> = {}): Promise<ClaimVolume> => {
    const dir = join(root, `claim-${count++}`);
    await mkdir(dir);
    return { dir, requestBytes: GIB, capacityBytes: GIB, ...sizes };
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "claim-disk-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test("the size is the smaller of request and capacity, less the file system's share, in whole MiB", () => {
    assert.equal(claimDiskSize({ dir: "/", requestBytes: GIB, capacityBytes: 2 * GIB }, options), 962 * MIB);
    assert.equal(claimDiskSize({ dir: "/", requestBytes: 2 * GIB, capacityBytes: GIB }, options), 962 * MIB);
    assert.equal(
      claimDiskSize({ dir: "/", requestBytes: GIB, capacityBytes: undefined }, options),
      962 * MIB,
    );
    assert.throws(
      () => claimDiskSize({ dir: "/", requestBytes: undefined, capacityBytes: undefined }, options),
      refusedWith("InvalidSpec", /provides no storage capacity or requests/),
    );
    assert.throws(
      () => claimDiskSize({ dir: "/", requestBytes: MIB, capacityBytes: MIB }, options),
      refusedWith("InvalidSpec", /must be at least 1MiB/),
    );
  });

  test("a claim without disk.img gets a sparse raw one of that size, and nothing else", async () => {
    const claim = await volume();
    const disk = await openClaimDisk(claim, options);
    try {
      assert.equal(disk.sizeBytes, 962 * MIB);
      const made = await stat(join(claim.dir, "disk.img"));
      assert.equal(made.size, 962 * MIB);
      assert.ok(made.blocks * 512 < MIB, `sparse: ${made.blocks} blocks allocated`);
      assert.equal((await disk.file.stat()).ino, made.ino, "the open file is the disk");
    } finally {
      await disk.file.close();
    }
    const { readdir } = await import("node:fs/promises");
    assert.deepEqual(await readdir(claim.dir), ["disk.img"], "no temporary file is left");
  });

  test("an existing disk.img is used as it is: its size and content stay", async () => {
    const claim = await volume();
    await writeFile(join(claim.dir, "disk.img"), "written by an importer");
    const disk = await openClaimDisk(claim, options);
    await disk.file.close();
    assert.equal(disk.sizeBytes, "written by an importer".length);
    assert.equal(await readFile(join(claim.dir, "disk.img"), "utf8"), "written by an importer");
  });

  test("a disk.img that links elsewhere (a node file) is refused, and the target is untouched", async () => {
    const claim = await volume();
    const target = join(root, "node-secret");
    await writeFile(target, "node data");
    await symlink(target, join(claim.dir, "disk.img"));
    await assert.rejects(
      openClaimDisk(claim, options),
      refusedWith("InvalidSpec", /is a symbolic link: refused/),
    );
    assert.equal(await readFile(target, "utf8"), "node data");
    assert.ok(
      (await lstat(join(claim.dir, "disk.img"))).isSymbolicLink(),
      "the link is left as the user made it",
    );
  });

  test("a disk.img that is a directory is refused", async () => {
    const claim = await volume();
    await mkdir(join(claim.dir, "disk.img"));
    await assert.rejects(openClaimDisk(claim, options), refusedWith("InvalidSpec", /not a regular file/));
  });

  test("a read-only claim without a disk is refused, not made", async () => {
    const claim = await volume();
    await assert.rejects(
      openClaimDisk(claim, { ...options, readOnly: true }),
      refusedWith("InvalidSpec", /read-only and has no disk.img/),
    );
  });

  test("a disk larger than the volume's free space (beyond 10 %) is not made", async () => {
    const claim = await volume({ requestBytes: 1024 * 1024 * GIB, capacityBytes: 1024 * 1024 * GIB });
    await assert.rejects(
      openClaimDisk(claim, options),
      refusedWith(
        "VolumePreparationFailed",
        /not enough space, demanded size \d+ B is bigger than available space/,
      ),
    );
  });
});
