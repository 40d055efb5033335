// The paths handed to qemu-img must be plain file names: nothing qemu could read as an option, a
// "json:" description or a "proto:" protocol.
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { assertPlainFilePath, createQcow2Overlay } from "./disk-files.js";

describe("paths given to qemu-img", () => {
  let workDir: string;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "disk-files-"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("absolute, normalised paths without ':' pass", () => {
    assert.doesNotThrow(() => assertPlainFilePath("/var/lib/kubevirt-ts/node-1/4b1f7c9e/root.base"));
  });

  const refused = [
    'json:{"driver":"file","filename":"/etc/shadow"}',
    "nbd:unix:/run/x.sock",
    "relative/root.base",
    "-obacking_file=/dev/vda",
    "/vm/../etc/shadow",
    "/vm//root.base",
    "/vm/root:base",
    "/vm/root\nbase",
  ];
  for (const path of refused) {
    test(`refuses ${JSON.stringify(path)}`, () => {
      assert.throws(() => assertPlainFilePath(path), /not a plain absolute file path/);
    });
  }

  test("createQcow2Overlay refuses such a base before running qemu-img", async () => {
    const overlay = join(workDir, "root.qcow2");
    await assert.rejects(
      createQcow2Overlay('json:{"driver":"file","filename":"/dev/vda"}', "raw", overlay),
      /not a plain/,
    );
    assert.deepEqual(await readdir(workDir), []);
  });
});
