// IMPORTER_SOURCE=registry against Debian's real docker-registry (dev-cluster/registry), reached over plain
// http through a hosts.toml directory as a node's mirror configuration: containerDisk images pushed with
// test/oci-image become disk.img; an image without a disk, or with a qcow2 naming a backing file, is refused.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { writeRegistryMirrors } from "../dev-cluster/registry/registry-mirrors.js";
import { type RunningRegistry, startRegistry } from "../dev-cluster/registry/start-registry.js";
import { buildImage, containerDiskImage, layerFromEntries, pushImage } from "../test/oci-image/index.js";
import {
  type ImporterPod,
  newImporterPod,
  patternedDisk,
  qemuImg,
  runImporter,
} from "./testing/importer-run.js";

const MiB = 1024 * 1024;
const DISK = patternedDisk(2 * MiB);

describe("registry import", { timeout: 60_000 }, () => {
  let work: string;
  let registry: RunningRegistry;
  let hosts: string;
  const pods: ImporterPod[] = [];
  const importImage = async (image: string, size = "3Mi") => {
    const target = await newImporterPod();
    pods.push(target);
    const exit = await runImporter(
      target.env({
        IMPORTER_SOURCE: "registry",
        IMPORTER_ENDPOINT: `docker://${registry.address}/${image}`,
        IMPORTER_IMAGE_SIZE: size,
        IMPORTER_REGISTRY_HOSTS: hosts,
      }),
    );
    return { target, exit };
  };
  const push = async (repository: string, image: Awaited<ReturnType<typeof containerDiskImage>>) =>
    pushImage({ registry: registry.address, repository, tag: "v1", image });

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "cdi-importer-registry-"));
    registry = await startRegistry({
      dataDir: join(work, "registry"),
      address: "127.0.0.1:0",
      log: pino({ level: "silent" }),
    });
    hosts = join(work, "hosts.d");
    await writeRegistryMirrors(hosts, { mirrorHosts: [registry.address], endpoint: registry.url });
    await writeFile(join(work, "disk.raw"), DISK);
    await qemuImg("convert", "-f", "raw", "-O", "qcow2", join(work, "disk.raw"), join(work, "disk.qcow2"));
    await qemuImg(
      "create",
      "-f",
      "qcow2",
      "-u",
      "-b",
      "/dev/sda",
      "-F",
      "raw",
      join(work, "overlay.qcow2"),
      "1M",
    );
    await push("disks/qcow2", await containerDiskImage({ disk: join(work, "disk.qcow2") }));
    await push("disks/raw", await containerDiskImage({ disk: join(work, "disk.raw"), compression: "zstd" }));
    await push("disks/overlay", await containerDiskImage({ disk: join(work, "overlay.qcow2") }));
    const noDisk = await layerFromEntries([{ path: "etc/", type: "dir" }], { compression: "gzip" });
    await push("disks/none", buildImage({ layers: [noDisk] }));
  });
  after(async () => {
    await registry?.stop();
    for (const target of pods) await target.remove();
    if (work) await rm(work, { recursive: true, force: true });
  });

  for (const repository of ["disks/qcow2", "disks/raw"]) {
    test(`${repository}: the image's disk becomes a raw disk.img of the size, and the pull leaves nothing`, async () => {
      const { target, exit } = await importImage(`${repository}:v1`);
      assert.equal(exit.code, 0, exit.stderr);
      assert.deepEqual(await readdir(target.data), ["disk.img"]);
      const disk = await readFile(join(target.data, "disk.img"));
      assert.equal(disk.length, 3 * MiB);
      assert.deepEqual(disk.subarray(0, DISK.length), DISK);
      assert.ok((await stat(join(target.data, "disk.img"))).blocks * 512 < MiB);
    });
  }

  const refusals: [string, string, RegExp][] = [
    [
      "a disk that names a backing file",
      "disks/overlay:v1",
      /refused: the qcow2 image names a backing file \/dev\/sda/,
    ],
    ["an image without /disk", "disks/none:v1", /Failed to find VM disk image file in the container image/],
    ["a disk larger than the size", "disks/qcow2:v1", /A larger PVC is required/],
    ["an image that is not there", "disks/absent:v1", /Failed to read registry image/],
  ];
  for (const [what, image, why] of refusals) {
    test(`${what} is refused and /data is left empty`, async () => {
      const { target, exit } = await importImage(image, what.includes("larger") ? "1Mi" : "3Mi");
      assert.equal(exit.code, 1);
      assert.match(exit.stderr, why);
      assert.deepEqual(await readdir(target.data), []);
    });
  }
});
