// checkedDiskImageFormat on real files: the format comes from the first bytes (with qemu-img off PATH, to
// show it is never asked), a declared raw is kept, a declared qcow2 must be true, and qcow2 images naming
// other files are refused.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { checkedDiskImageFormat, type DiskImageFormat } from "./disk-format.js";
import { DiskImageError } from "./disk-image-error.js";
import { createQcow2 } from "./testing/qemu-img.js";

describe("checkedDiskImageFormat", () => {
  let workDir: string;
  let savedPath: string | undefined;
  const file = (name: string) => join(workDir, name);

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "disk-image-format-"));
    await writeFile(file("host.img"), Buffer.alloc(65536, 1));
    await writeFile(file("raw.img"), Buffer.alloc(65536, 2));
    await writeFile(file("tiny.img"), "QF");
    await mkdir(file("directory.img"));
    await createQcow2(file("plain.qcow2"), "1M");
    await createQcow2("-b", file("host.img"), "-F", "raw", file("evil.qcow2"));
    await symlink(file("plain.qcow2"), file("link.qcow2"));
    // From here on, nothing can run qemu-img: the format must come from the bytes alone.
    savedPath = process.env.PATH;
    process.env.PATH = "";
  });
  after(async () => {
    process.env.PATH = savedPath;
    await rm(workDir, { recursive: true, force: true });
  });

  const check = (name: string, declared?: DiskImageFormat) =>
    checkedDiskImageFormat({ path: file(name), ...(declared === undefined ? {} : { declared }) });

  test("without a declared format: qcow2 by its magic, everything else raw", async () => {
    assert.equal(await check("plain.qcow2"), "qcow2");
    assert.equal(await check("raw.img"), "raw");
    assert.equal(await check("tiny.img"), "raw");
  });

  test("a declared raw is kept, even for qcow2 bytes (QEMU is told raw)", async () => {
    assert.equal(await check("evil.qcow2", "raw"), "raw");
    assert.equal(await check("plain.qcow2", "raw"), "raw");
  });

  const refused: Array<[string, string, DiskImageFormat | undefined, RegExp]> = [
    [
      "a qcow2 naming a backing file",
      "evil.qcow2",
      undefined,
      /^names a backing file .*host.img: refused, QEMU would open it on the node$/,
    ],
    ["the same, declared qcow2", "evil.qcow2", "qcow2", /^names a backing file/],
    ["raw bytes declared qcow2", "raw.img", "qcow2", /^is not a qcow2 image .*the manifest says qcow2$/],
    ["a directory", "directory.img", undefined, /^is not a regular file$/],
  ];
  for (const [what, name, declared, detail] of refused) {
    test(`refuses ${what}`, async () => {
      await assert.rejects(check(name, declared), (error: unknown) => {
        assert.ok(error instanceof DiskImageError, `a DiskImageError, got ${String(error)}`);
        assert.equal(error.reason, "InvalidImage");
        assert.equal(error.path, file(name));
        assert.match(error.detail, detail);
        assert.equal(error.message, `${file(name)} ${error.detail}`);
        return true;
      });
    });
  }

  test("never follows a symbolic link to the file it checks", async () => {
    await assert.rejects(check("link.qcow2"), { code: "ELOOP" });
  });
});
