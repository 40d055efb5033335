// prepareVolumes with images that try to reach host files (testing/hostile-image-store.ts): every way out
// of an image is refused with the reason, the host files keep their content and mtime, and nothing is
// left in the VM directory; good raw and qcow2 disks still get their overlays.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Volume } from "../../api/index.js";
import { LocalImageStore } from "../container-disk/local-image-store.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { vmiWithSpec } from "../converter/testing/test-vmis.js";
import { runCommand } from "./host-commands.js";
import { type PreparedVolumes, prepareVolumes } from "./prepare-volumes.js";
import { type HostileImageStore, hostFileNow, makeHostileImageStore } from "./testing/hostile-image-store.js";

const UID = "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5";

type KernelBoot = { image: string; kernelPath?: string; initrdPath?: string };

function vmiWith(volumes: Volume[], kernelBoot?: KernelBoot) {
  return vmiWithSpec(
    {
      domain: {
        resources: { requests: { memory: "64Mi" } },
        ...(kernelBoot ? { firmware: { kernelBoot: { container: kernelBoot } } } : {}),
        devices: { disks: volumes.map((volume) => ({ name: volume.name })) },
      },
      volumes,
    },
    { uid: UID },
  );
}

async function imageInfo(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await runCommand("qemu-img", ["info", "--output=json", "-U", path])) as Record<
    string,
    unknown
  >;
}

describe("containerDisk and kernelBoot files are confined to their image", () => {
  let workDir: string;
  let hostile: HostileImageStore;
  let images: LocalImageStore;
  let runs = 0;
  const nextVmDir = () => join(workDir, `vm-${++runs}`);

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "image-confinement-"));
    hostile = await makeHostileImageStore(workDir);
    images = new LocalImageStore(hostile.storeDir);
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  async function assertRefused(vmDir: string, volumes: Volume[], message: RegExp, kernelBoot?: KernelBoot) {
    await assert.rejects(
      prepareVolumes(vmiWith(volumes, kernelBoot), { vmDir, images }),
      (error: unknown) => {
        assert.ok(error instanceof VmiConversionError, `a VmiConversionError, got ${String(error)}`);
        assert.equal(error.reason, "InvalidImage");
        assert.match(error.message, message);
        return true;
      },
    );
    assert.deepEqual(await readdir(vmDir), [], "nothing is left in the VM directory");
    assert.deepEqual(await hostFileNow(hostile.secret.path), hostile.secret, "the host file is untouched");
    assert.deepEqual(
      await hostFileNow(hostile.dataFile.path),
      hostile.dataFile,
      "the data file is untouched",
    );
  }

  const disk = (image: string, path?: string): Volume[] => [
    { name: "root", containerDisk: { image: `localhost/${image}`, ...(path ? { path } : {}) } },
  ];

  const refusals: Array<[string, Volume[], RegExp]> = [
    [
      "a disk that is a symbolic link to a host file",
      disk("symlink-disk:v1"),
      /^volume root: localhost\/symlink-disk:v1: the disk \/disk\/disk.img is a symbolic link, not a regular file$/,
    ],
    [
      "a symbolic link to / as a directory of the disk's path",
      disk("symlink-dir:v1"),
      /^volume root: .*the disk \/disk\/.*secret.img cannot be used: \/disk is a symbolic link, not a directory$/,
    ],
    [
      "a containerDisk.path climbing out with ..",
      disk("good:v1", "/disk/../../../../host/secret.img"),
      /^volume root: localhost\/good:v1: the path .* leaves the image/,
    ],
    ["a FIFO", disk("fifo:v1"), /the disk \/disk\/disk.img is a FIFO, not a regular file$/],
    ["a directory", disk("directory:v1"), /the disk \/disk\/disk.img is a directory, not a regular file$/],
    [
      "a qcow2 naming a backing file",
      disk("backing:v1"),
      /^volume root: localhost\/backing:v1: the disk \/disk\/disk.qcow2 names a backing file \/.*\/host\/secret.img: refused/,
    ],
    [
      "a qcow2 the manifest does not name, chosen by containerDisk.path, naming a backing file",
      disk("good:v1", "/disk/evil.qcow2"),
      /the disk \/disk\/evil.qcow2 names a backing file \/.*\/host\/secret.img/,
    ],
    [
      "a qcow2 with an external data file",
      disk("data-file:v1"),
      /the disk \/disk\/disk.qcow2 uses an external data file \/.*\/host\/data-file.img: refused/,
    ],
    [
      "a disk the manifest says is qcow2 that is not",
      disk("not-qcow2:v1"),
      /the disk \/disk\/disk.qcow2 is not a qcow2 image .*though the manifest says qcow2/,
    ],
    ["a disk that is not in the image", disk("good:v1", "/disk/missing.img"), /is not in the image$/],
  ];
  for (const [what, volumes, message] of refusals) {
    test(`refuses ${what}`, () => assertRefused(nextVmDir(), volumes, message));
  }

  test("refuses a device", async (t) => {
    if (!hostile.hasDevice) return t.skip("mknod needs root");
    await assertRefused(
      nextVmDir(),
      disk("device:v1"),
      /the disk \/disk\/disk.img is a device, not a regular file$/,
    );
  });

  test("refuses a kernel or initrd that is a symbolic link or leaves the image, leaving no kernel behind", async () => {
    const image = "localhost/kernel:v1";
    await assertRefused(
      nextVmDir(),
      [],
      /^kernelBoot: .*the kernel \/boot\/vmlinuz-link is a symbolic link/,
      {
        image,
        kernelPath: "/boot/vmlinuz-link",
      },
    );
    await assertRefused(nextVmDir(), [], /^kernelBoot: .*the initrd \/boot\/initrd-link is a symbolic link/, {
      image,
      kernelPath: "/boot/vmlinuz",
      initrdPath: "/boot/initrd-link",
    });
    await assertRefused(nextVmDir(), [], /^kernelBoot: .*leaves the image/, {
      image,
      kernelPath: "/boot/../../../host/secret.img",
    });
  });

  async function prepareOne(volumes: Volume[]): Promise<{ vmDir: string; prepared: PreparedVolumes }> {
    const vmDir = nextVmDir();
    return { vmDir, prepared: await prepareVolumes(vmiWith(volumes), { vmDir, images }) };
  }

  test("a raw disk gets an overlay backed by its pinned hard link, with the raw format stated", async () => {
    const { vmDir } = await prepareOne(disk("raw:v1"));
    const info = await imageInfo(join(vmDir, "root.qcow2"));
    assert.equal(info["backing-filename"], join(vmDir, "root.base"));
    assert.equal(info["backing-filename-format"], "raw");
    const imageDisk = await stat(join(hostile.storeDir, "raw:v1/rootfs/disk/disk.img"));
    assert.equal((await stat(join(vmDir, "root.base"))).ino, imageDisk.ino, "pinned as a hard link");
  });

  test("a plain qcow2 disk, and one chosen by containerDisk.path, are used as qcow2", async () => {
    for (const volumes of [disk("good:v1"), disk("good:v1", "disk/disk.qcow2")]) {
      const { vmDir } = await prepareOne(volumes);
      const info = await imageInfo(join(vmDir, "root.qcow2"));
      assert.equal(info["backing-filename-format"], "qcow2");
      assert.equal(info["virtual-size"], 1024 * 1024);
    }
    const { vmDir } = await prepareOne(disk("good:v1", "/disk/plain.img"));
    assert.equal((await imageInfo(join(vmDir, "root.qcow2")))["backing-filename-format"], "raw");
  });

  test("a qcow2 the manifest calls raw is raw: QEMU never reads the backing file its header names", async () => {
    const { vmDir } = await prepareOne(disk("backing-as-raw:v1"));
    const info = await imageInfo(join(vmDir, "root.qcow2"));
    assert.equal(info["backing-filename-format"], "raw");
    // The whole chain as qemu-img sees it: the overlay and the raw base, nothing after it.
    const chain = JSON.parse(
      await runCommand("qemu-img", [
        "info",
        "--output=json",
        "--backing-chain",
        "-U",
        join(vmDir, "root.qcow2"),
      ]),
    ) as Array<{ filename: string; format: string }>;
    assert.deepEqual(
      chain.map((layer) => [layer.filename, layer.format]),
      [
        [join(vmDir, "root.qcow2"), "qcow2"],
        [join(vmDir, "root.base"), "raw"],
      ],
    );
    assert.deepEqual(await hostFileNow(hostile.secret.path), hostile.secret);
  });

  test("an image file on another file system is pinned as a copy of the checked file", async (t) => {
    const otherFs = "/dev/shm";
    if (!existsSync(otherFs) || (await stat(otherFs)).dev === (await stat(workDir)).dev) {
      return t.skip("no second file system at /dev/shm");
    }
    const vmDir = await mkdtemp(join(otherFs, "image-confinement-vm-"));
    try {
      await prepareVolumes(vmiWith(disk("raw:v1")), { vmDir, images });
      const pinned = await stat(join(vmDir, "root.base"));
      assert.equal(pinned.nlink, 1, "a copy, not a link");
      assert.equal(pinned.size, 1024 * 1024);
      assert.equal(
        (await imageInfo(join(vmDir, "root.qcow2")))["backing-filename"],
        join(vmDir, "root.base"),
      );
    } finally {
      await rm(vmDir, { recursive: true, force: true });
    }
  });
});
