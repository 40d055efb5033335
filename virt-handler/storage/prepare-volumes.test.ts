// prepareVolumes with the real test guest in the real local image store: overlays that leave the base
// untouched, empty disks and host disks of the right size, cloud-init ISOs with the right label and
// files, kernelBoot from the image, and the volume kinds that are refused.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Volume } from "../../api/index.js";
import { ensureTestGuest, type TestGuest } from "../../test/guest/ensure-test-guest.js";
import { LocalImageStore } from "../container-disk/local-image-store.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { vmiWithSpec } from "../converter/testing/test-vmis.js";
import { runCommand } from "./host-commands.js";
import { type PreparedVolumes, prepareVolumes, removeVmFiles } from "./prepare-volumes.js";

const UID = "4b1f7c9e-8d2a-4e3b-9c5d-0a1b2c3d4e5f";
const USER_DATA = "#cloud-config\nruncmd:\n  - echo prepared\n";
const NETWORK_DATA = "version: 2\nethernets: {}\n";

async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

async function imageInfo(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await runCommand("qemu-img", ["info", "--output=json", "-U", path])) as Record<
    string,
    unknown
  >;
}

async function isoFile(iso: string, path: string): Promise<string> {
  return runCommand("isoinfo", ["-R", "-i", iso, "-x", path]);
}

async function isoListing(iso: string): Promise<string[]> {
  const listing = await runCommand("isoinfo", ["-R", "-f", "-i", iso]);
  return listing
    .split("\n")
    .filter((line) => line !== "")
    .sort();
}

async function isoLabel(iso: string): Promise<string | undefined> {
  return /^Volume id: (.*)$/m.exec(await runCommand("isoinfo", ["-d", "-i", iso]))?.[1]?.trim();
}

function vmiWith(volumes: Volume[], image: string, kernelArgs?: string) {
  return vmiWithSpec(
    {
      hostname: "prepared-guest",
      domain: {
        resources: { requests: { memory: "64Mi" } },
        firmware: { kernelBoot: { container: { image }, ...(kernelArgs ? { kernelArgs } : {}) } },
        devices: { disks: volumes.map((volume) => ({ name: volume.name })) },
      },
      volumes,
    },
    { uid: UID },
  );
}

describe("prepareVolumes with the test guest's image", () => {
  let guest: TestGuest;
  let store: LocalImageStore;
  let baseDisk: string;
  let baseDigest: string;
  let workDir: string;
  let vmDir: string;
  let hostDiskPath: string;
  let prepared: PreparedVolumes;

  before(
    async () => {
      guest = await ensureTestGuest();
      store = new LocalImageStore(guest.storeDir);
      baseDisk = join(guest.imageDirectory, "rootfs/disk/disk.qcow2");
      baseDigest = await sha256(baseDisk);
      workDir = await mkdtemp(join(tmpdir(), "prepare-volumes-"));
      vmDir = join(workDir, "vm");
      hostDiskPath = join(workDir, "host/disks/data.img");
    },
    { timeout: 300_000 },
  );

  after(() => rm(workDir, { recursive: true, force: true }));

  test("prepares every supported kind in the VM directory", async () => {
    const started = performance.now();
    prepared = await prepareVolumes(
      vmiWith(
        [
          { name: "root", containerDisk: { image: guest.image } },
          { name: "scratch", emptyDisk: { capacity: "64Mi" } },
          { name: "data", hostDisk: { path: hostDiskPath, type: "DiskOrCreate", capacity: "32Mi" } },
          { name: "cidata", cloudInitNoCloud: { userData: USER_DATA, networkData: NETWORK_DATA } },
          {
            name: "configdrive",
            cloudInitConfigDrive: { userDataBase64: Buffer.from(USER_DATA).toString("base64") },
          },
        ],
        guest.image,
      ),
      { vmDir, images: store },
    );
    const elapsed = Math.round(performance.now() - started);
    assert.deepEqual(
      [...prepared.disks.values()].map((disk) => [
        disk.volumeName,
        disk.path,
        disk.format,
        disk.readOnly,
        disk.device,
      ]),
      [
        ["root", join(vmDir, "root.qcow2"), "qcow2", false, "disk"],
        ["scratch", join(vmDir, "scratch.qcow2"), "qcow2", false, "disk"],
        ["data", hostDiskPath, "raw", false, "disk"],
        ["cidata", join(vmDir, "cidata.iso"), "raw", true, "cdrom"],
        ["configdrive", join(vmDir, "configdrive.iso"), "raw", true, "cdrom"],
      ],
    );
    assert.ok(elapsed < 10_000, `prepared in ${elapsed} ms`);
  });

  test("containerDisk: a qcow2 overlay backed by the image's disk, which stays unchanged", async () => {
    const info = await imageInfo(join(vmDir, "root.qcow2"));
    assert.equal(info.format, "qcow2");
    assert.equal(info["backing-filename-format"], "qcow2");
    const backing = String(info["backing-filename"]);
    assert.ok(backing === join(vmDir, "root.base") || backing === baseDisk, `backed by ${backing}`);
    assert.equal(await sha256(backing), baseDigest, "the pinned base is the image's disk");
    assert.equal(info["virtual-size"], (await imageInfo(baseDisk))["virtual-size"]);
    // A guest's writes land in the overlay, never in the base.
    await runCommand("qemu-io", ["-f", "qcow2", "-c", "write -P 0x5a 0 1M", join(vmDir, "root.qcow2")]);
    assert.equal(await sha256(baseDisk), baseDigest);
  });

  test("emptyDisk: an empty qcow2 of the capacity; hostDisk DiskOrCreate: a sparse raw file", async () => {
    const scratch = await imageInfo(join(vmDir, "scratch.qcow2"));
    assert.deepEqual(
      [scratch.format, scratch["virtual-size"], scratch["backing-filename"]],
      ["qcow2", 64 * 2 ** 20, undefined],
    );
    const host = await stat(hostDiskPath);
    assert.equal(host.size, 32 * 2 ** 20);
    assert.ok(host.blocks * 512 < host.size, "sparse");
  });

  test("cloudInitNoCloud: an ISO labelled cidata with user-data, meta-data and network-config", async () => {
    const iso = join(vmDir, "cidata.iso");
    assert.equal(await isoLabel(iso), "cidata");
    assert.deepEqual(await isoListing(iso), ["/meta-data", "/network-config", "/user-data"]);
    assert.equal(await isoFile(iso, "/user-data"), USER_DATA);
    assert.equal(await isoFile(iso, "/meta-data"), `instance-id: ${UID}\nlocal-hostname: prepared-guest\n`);
    assert.equal(await isoFile(iso, "/network-config"), NETWORK_DATA);
  });

  test("cloudInitConfigDrive: an ISO labelled config-2 in OpenStack's layout", async () => {
    const iso = join(vmDir, "configdrive.iso");
    assert.equal(await isoLabel(iso), "config-2");
    assert.equal(await isoFile(iso, "/openstack/latest/user_data"), USER_DATA);
    const metaData = JSON.parse(await isoFile(iso, "/openstack/latest/meta_data.json")) as Record<
      string,
      unknown
    >;
    assert.equal(metaData.uuid, UID);
    assert.equal(metaData.hostname, "prepared-guest");
  });

  test("kernelBoot: the image's kernel and initrd, with the image's kernel arguments when the VMI has none", async () => {
    const kernelBoot = prepared.kernelBoot;
    assert.ok(kernelBoot);
    assert.equal(
      await sha256(kernelBoot.kernel),
      await sha256(join(guest.imageDirectory, "rootfs/boot/vmlinuz")),
    );
    assert.ok(kernelBoot.initrd && existsSync(kernelBoot.initrd));
    assert.equal(kernelBoot.cmdline, guest.diskKernelArgs);
    const own = await prepareVolumes(vmiWith([], guest.image, "console=ttyS0 custom"), {
      vmDir: join(workDir, "vm-2"),
      images: store,
    });
    assert.equal(own.kernelBoot?.cmdline, "console=ttyS0 custom");
  });

  test("preparing again keeps the disks and what the guest wrote to them", async () => {
    const before = await sha256(join(vmDir, "root.qcow2"));
    const again = await prepareVolumes(
      vmiWith([{ name: "root", containerDisk: { image: guest.image } }], guest.image),
      { vmDir, images: store },
    );
    assert.equal(again.disks.get("root")?.path, join(vmDir, "root.qcow2"));
    assert.equal(await sha256(join(vmDir, "root.qcow2")), before);
  });

  test("removeVmFiles removes the VM directory and leaves the image alone", async () => {
    await removeVmFiles(vmDir);
    await removeVmFiles(vmDir); // idempotent
    assert.equal(existsSync(vmDir), false);
    assert.equal(await sha256(baseDisk), baseDigest);
    await assert.rejects(removeVmFiles("relative/dir"), /refusing/);
  });
});

describe("prepareVolumes refuses what it cannot provide, naming the volume", () => {
  let workDir: string;
  const images = new LocalImageStore("/nonexistent-image-store");

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "prepare-refusals-"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  const cases: Array<[string, Volume, string, RegExp]> = [
    [
      "persistentVolumeClaim without the launcher pod's volumes",
      { name: "pvc", persistentVolumeClaim: { claimName: "c" } },
      "UnsupportedVolume",
      /volume pvc: a claim's disk needs the launcher pod's volumes/,
    ],
    ["configMap", { name: "cm", configMap: { name: "c" } }, "UnsupportedVolume", /volume cm: configMap/],
    ["secret", { name: "sec", secret: { secretName: "s" } }, "UnsupportedVolume", /volume sec: secret/],
    [
      "serviceAccount",
      { name: "sa", serviceAccount: { serviceAccountName: "s" } },
      "UnsupportedVolume",
      /volume sa: serviceAccount/,
    ],
    [
      "a missing image",
      { name: "root", containerDisk: { image: "localhost/missing:v1" } },
      "ImageNotFound",
      /volume root: localhost\/missing:v1 is not in the local image store/,
    ],
    [
      "a registry image",
      { name: "root", containerDisk: { image: "quay.io/x/y:1" } },
      "ImageNotFound",
      /volume root: quay.io\/x\/y:1/,
    ],
    [
      "a hostDisk that is not there",
      { name: "h", hostDisk: { path: "/nonexistent/disk.img", type: "Disk" } },
      "InvalidSpec",
      /volume h: hostDisk \/nonexistent\/disk.img does not exist/,
    ],
    [
      "an emptyDisk without a size",
      { name: "e", emptyDisk: { capacity: "zero" } },
      "InvalidSpec",
      /volume e: emptyDisk.capacity must be a positive quantity/,
    ],
    ["a volume without a source", { name: "nothing" }, "InvalidSpec", /volume nothing has no source/],
  ];
  for (const [kind, volume, reason, message] of cases) {
    test(kind, async () => {
      const vmi = vmiWithSpec(
        { domain: { devices: { disks: [{ name: volume.name }] } }, volumes: [volume] },
        { uid: UID },
      );
      await assert.rejects(
        prepareVolumes(vmi, { vmDir: join(workDir, kind.replaceAll(" ", "-")), images }),
        (error: unknown) => {
          assert.ok(error instanceof VmiConversionError, `a VmiConversionError, got ${String(error)}`);
          assert.equal(error.reason, reason);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});
