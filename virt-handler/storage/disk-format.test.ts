// checkedDiskFormat: disk-image/'s check (tested there) said of the disk inside its image, as the
// ContainerDiskError a VMI shows.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ContainerDiskError } from "../container-disk/index.js";
import { checkedDiskFormat } from "./disk-format.js";
import { runCommand } from "./host-commands.js";

const IMAGE = "localhost/formats:v1";

describe("checkedDiskFormat", () => {
  let workDir: string;
  const file = (name: string) => join(workDir, name);

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "disk-format-"));
    await writeFile(file("host.img"), Buffer.alloc(65536, 1));
    await writeFile(file("raw.img"), Buffer.alloc(65536, 2));
    await runCommand("qemu-img", ["create", "-q", "-f", "qcow2", file("plain.qcow2"), "1M"]);
    await runCommand("qemu-img", [
      "create",
      "-q",
      "-f",
      "qcow2",
      "-b",
      file("host.img"),
      "-F",
      "raw",
      file("evil.qcow2"),
    ]);
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  const check = (name: string, declared?: "qcow2" | "raw") =>
    checkedDiskFormat({ image: IMAGE, pathInImage: `/disk/${name}`, path: file(name), declared });

  test("the library's format, the manifest's raw kept", async () => {
    assert.equal(await check("plain.qcow2"), "qcow2");
    assert.equal(await check("raw.img"), "raw");
    assert.equal(await check("evil.qcow2", "raw"), "raw");
  });

  const refused: Array<[string, string, "qcow2" | undefined, RegExp]> = [
    [
      "a qcow2 naming a backing file",
      "evil.qcow2",
      undefined,
      /^localhost\/formats:v1: the disk \/disk\/evil.qcow2 names a backing file .*host.img: refused, QEMU would open it on the node$/,
    ],
    [
      "raw bytes the manifest calls qcow2",
      "raw.img",
      "qcow2",
      /^localhost\/formats:v1: the disk \/disk\/raw.img is not a qcow2 image .*the manifest says qcow2$/,
    ],
  ];
  for (const [what, name, declared, message] of refused) {
    test(`refuses ${what} as InvalidImage`, async () => {
      await assert.rejects(check(name, declared), (error: unknown) => {
        assert.ok(error instanceof ContainerDiskError, `a ContainerDiskError, got ${String(error)}`);
        assert.equal(error.reason, "InvalidImage");
        assert.equal(error.image, IMAGE);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
