// blank and pvc (clone) sources, and what the importer refuses before it imports anything.
import assert from "node:assert/strict";
import { readdir, readFile, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  type ImporterPod,
  newImporterPod,
  patternedDisk,
  runImporter,
  terminationMessage,
} from "./testing/importer-run.js";

const MiB = 1024 * 1024;

describe("blank and pvc imports", () => {
  const pods: ImporterPod[] = [];
  const pod = async () => {
    const created = await newImporterPod();
    pods.push(created);
    return created;
  };
  after(async () => {
    for (const created of pods) await created.remove();
  });

  test("blank makes a sparse raw disk.img of the size", async () => {
    const target = await pod();
    const exit = await runImporter(target.env({ IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "1Gi" }));
    assert.equal(exit.code, 0, exit.stderr);
    const disk = await stat(join(target.data, "disk.img"));
    assert.equal(disk.size, 1024 ** 3);
    assert.equal(disk.blocks, 0);
  });

  test("pvc copies the source claim's disk.img, sparse, grown to the size", async () => {
    const target = await pod();
    const content = patternedDisk(2 * MiB);
    await writeFile(join(target.source, "disk.img"), content);
    await truncate(join(target.source, "disk.img"), 3 * MiB);
    const exit = await runImporter(
      target.env({ IMPORTER_SOURCE: "pvc", IMPORTER_IMAGE_SIZE: String(5 * MiB) }),
    );
    assert.equal(exit.code, 0, exit.stderr);
    const disk = await readFile(join(target.data, "disk.img"));
    assert.equal(disk.length, 5 * MiB);
    assert.deepEqual(disk.subarray(0, content.length), content);
    assert.ok(disk.subarray(content.length).every((byte) => byte === 0));
    assert.ok((await stat(join(target.data, "disk.img"))).blocks * 512 < MiB);
  });

  test("pvc refuses a source larger than the size, and a source disk.img that is a link", async () => {
    const larger = await pod();
    await writeFile(join(larger.source, "disk.img"), Buffer.alloc(2 * MiB, 1));
    const exit = await runImporter(larger.env({ IMPORTER_SOURCE: "pvc", IMPORTER_IMAGE_SIZE: "1Mi" }));
    assert.equal(exit.code, 1);
    assert.match(exit.stderr, /smaller than the source\. A larger PVC is required/);
    assert.deepEqual(await readdir(larger.data), []);
    const linked = await pod();
    await writeFile(join(linked.work, "elsewhere.img"), Buffer.alloc(MiB, 2));
    await symlink(join(linked.work, "elsewhere.img"), join(linked.source, "disk.img"));
    const refused = await runImporter(linked.env({ IMPORTER_SOURCE: "pvc", IMPORTER_IMAGE_SIZE: "1Mi" }));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /\/source\/disk\.img is a symbolic link/);
  });

  test("a leftover temporary that is a link is removed, never written through", async () => {
    const target = await pod();
    const outside = join(target.work, "outside");
    await writeFile(outside, "keep me");
    await symlink(outside, join(target.data, ".cdi-import-disk.img"));
    const exit = await runImporter(target.env({ IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "1Mi" }));
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(await readFile(outside, "utf8"), "keep me");
    assert.deepEqual(await readdir(target.data), ["disk.img"]);
    assert.equal((await stat(join(target.data, "disk.img"))).size, MiB);
  });

  test("a disk.img that is a link is refused; bad variables fail with the variable's name", async () => {
    const linked = await pod();
    await symlink(join(linked.work, "outside"), join(linked.data, "disk.img"));
    const exit = await runImporter(linked.env({ IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "1Mi" }));
    assert.equal(exit.code, 1);
    assert.match(exit.stderr, /disk\.img exists and is not a regular file/);
    const target = await pod();
    const cases: [Record<string, string>, RegExp][] = [
      [{ IMPORTER_SOURCE: "s3", IMPORTER_IMAGE_SIZE: "1Mi" }, /IMPORTER_SOURCE "s3" is not one of/],
      [{ IMPORTER_SOURCE: "http", IMPORTER_IMAGE_SIZE: "1Mi" }, /IMPORTER_ENDPOINT is required/],
      [
        { IMPORTER_SOURCE: "http", IMPORTER_ENDPOINT: "file:///etc/passwd", IMPORTER_IMAGE_SIZE: "1Mi" },
        /must be http:\/\/ or https:\/\//,
      ],
      [
        { IMPORTER_SOURCE: "blank", IMPORTER_IMAGE_SIZE: "lots" },
        /IMPORTER_IMAGE_SIZE "lots" is not a quantity/,
      ],
    ];
    for (const [variables, why] of cases) {
      const failed = await runImporter(target.env(variables));
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, why);
      assert.match(await terminationMessage(target), why);
    }
    assert.deepEqual(await readdir(target.data), []);
  });
});
