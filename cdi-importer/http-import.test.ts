// The importer as a process against a local HTTP server: each format becomes a raw disk.img of exactly
// the asked size and the image's content; what is refused leaves /data empty and says why, on stderr and
// in the termination message.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { type ImageServer, startImageServer } from "./testing/image-server.js";
import {
  type ImporterPod,
  newImporterPod,
  patternedDisk,
  qemuImg,
  runImporter,
  terminationMessage,
} from "./testing/importer-run.js";

const MiB = 1024 * 1024;
const DISK = patternedDisk(3 * MiB);

describe("http import", () => {
  let images: ImporterPod;
  let server: ImageServer;
  const pods: ImporterPod[] = [];
  const pod = async () => {
    const created = await newImporterPod();
    pods.push(created);
    return created;
  };
  const importUrl = (target: ImporterPod, path: string, size = "4Mi") =>
    runImporter(
      target.env({
        IMPORTER_SOURCE: "http",
        IMPORTER_ENDPOINT: `${server.url}/${path}`,
        IMPORTER_IMAGE_SIZE: size,
      }),
    );

  before(async () => {
    images = await pod();
    const dir = images.work;
    await writeFile(join(dir, "disk.raw"), DISK);
    await qemuImg("convert", "-f", "raw", "-O", "qcow2", join(dir, "disk.raw"), join(dir, "disk.qcow2"));
    await writeFile(join(dir, "disk.raw.gz"), gzipSync(DISK));
    await writeFile(join(dir, "disk.qcow2.gz"), gzipSync(await readFile(join(dir, "disk.qcow2"))));
    await promisify(execFile)("xz", ["--keep", "-0", join(dir, "disk.raw")]);
    await qemuImg(
      "create",
      "-f",
      "qcow2",
      "-b",
      join(dir, "disk.qcow2"),
      "-F",
      "qcow2",
      join(dir, "overlay.qcow2"),
    );
    await qemuImg("create", "-f", "qcow2", join(dir, "big.qcow2"), "8M");
    await qemuImg("create", "-f", "vmdk", join(dir, "disk.vmdk"), "1M");
    // Names say nothing: a qcow2 called .raw is still a qcow2.
    await writeFile(join(dir, "misnamed.raw"), await readFile(join(dir, "disk.qcow2")));
    server = await startImageServer(dir);
  });
  after(async () => {
    await server?.close();
    for (const created of pods) await created.remove();
  });

  for (const path of [
    "disk.raw",
    "disk.qcow2",
    "disk.raw.gz",
    "disk.raw.xz",
    "disk.qcow2.gz",
    "misnamed.raw",
    "redirect/disk.raw",
  ]) {
    test(`${path} becomes a raw disk.img of the asked size`, async () => {
      const target = await pod();
      const exit = await importUrl(target, path);
      assert.equal(exit.code, 0, exit.stderr);
      const disk = await readFile(join(target.data, "disk.img"));
      assert.equal(disk.length, 4 * MiB);
      assert.deepEqual(disk.subarray(0, DISK.length), DISK);
      assert.ok(disk.subarray(DISK.length).every((byte) => byte === 0));
      assert.deepEqual(await readdir(target.data), ["disk.img"]);
      // Sparse: the zeros of the image take no blocks.
      assert.ok((await stat(join(target.data, "disk.img"))).blocks * 512 < 2 * MiB);
    });
  }

  const refusals: [string, string, RegExp][] = [
    [
      "a qcow2 with a backing file",
      "overlay.qcow2",
      /refused: the qcow2 image names a backing file .*disk\.qcow2/,
    ],
    ["a raw image larger than the size", "disk.raw?size", /A larger PVC is required/],
    [
      "a qcow2 whose virtual size is larger",
      "big.qcow2",
      /virtual image size 8388608 is larger than .* 4194304\. A larger PVC is required/,
    ],
    ["a VMDK", "disk.vmdk", /is a VMDK image, which is not supported/],
    ["a missing URL", "nothing.raw", /expected status code 200 .* got 404/],
  ];
  for (const [what, path, why] of refusals) {
    test(`${what} is refused and /data is left empty`, async () => {
      const target = await pod();
      const exit = await importUrl(target, path, path === "disk.raw?size" ? "2Mi" : "4Mi");
      assert.equal(exit.code, 1);
      assert.match(exit.stderr, why);
      const line = exit.stderr.trim();
      assert.equal(line.includes("\n"), false, "one line");
      assert.equal(await terminationMessage(target), line);
      assert.deepEqual(await readdir(target.data), []);
    });
  }
});
