// The qcow2 header reader on images made by the real qemu-img (plain v2 and v3, with a backing file, with
// an external data file) and on headers altered byte by byte where qemu-img cannot make them.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  hasQcowMagic,
  QCOW2_HEADER_READ_BYTES,
  Qcow2HeaderError,
  qcow2Refusal,
  readQcow2Header,
} from "./qcow2-header.js";
import { createQcow2 } from "./testing/qemu-img.js";

async function head(path: string): Promise<Buffer> {
  return (await readFile(path)).subarray(0, QCOW2_HEADER_READ_BYTES);
}

/** The header with one extension of `type` carrying `data` where the extensions start, then the end mark. */
function withExtension(bytes: Buffer, start: number, type: number, data: string): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(type, start);
  copy.writeUInt32BE(data.length, start + 4);
  copy.write(data, start + 8, "latin1");
  const end = start + 8 + Math.ceil(data.length / 8) * 8;
  copy.writeUInt32BE(0, end);
  copy.writeUInt32BE(0, end + 4);
  return copy;
}

describe("readQcow2Header", () => {
  let workDir: string;
  let hostFile: string;
  let plainV3: Buffer;
  let plainV2: Buffer;

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "qcow2-header-"));
    hostFile = join(workDir, "host.img");
    await writeFile(hostFile, Buffer.alloc(65536));
    await createQcow2(join(workDir, "v3.qcow2"), "1M");
    await createQcow2("-o", "compat=0.10", join(workDir, "v2.qcow2"), "1M");
    await createQcow2("-b", hostFile, "-F", "raw", join(workDir, "backing.qcow2"));
    await createQcow2("-o", `data_file=${join(workDir, "data.img")}`, join(workDir, "data-file.qcow2"), "1M");
    plainV3 = await head(join(workDir, "v3.qcow2"));
    plainV2 = await head(join(workDir, "v2.qcow2"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("a plain qcow2, version 3 and version 2: nothing to follow", () => {
    const v3 = readQcow2Header(plainV3);
    assert.deepEqual(
      [v3.version, v3.backingFile, v3.externalDataFile, v3.dataFileName],
      [3, undefined, false, undefined],
    );
    assert.equal(qcow2Refusal(v3), undefined);
    const v2 = readQcow2Header(plainV2);
    assert.equal(v2.version, 2);
    assert.equal(qcow2Refusal(v2), undefined);
  });

  test("a backing file: its name, and the backing format extension", async () => {
    const header = readQcow2Header(await head(join(workDir, "backing.qcow2")));
    assert.equal(header.backingFile, hostFile);
    assert.equal(header.backingFormat, "raw");
    assert.equal(qcow2Refusal(header), `names a backing file ${hostFile}`);
  });

  test("an external data file: the incompatible bit and the name extension", async () => {
    const header = readQcow2Header(await head(join(workDir, "data-file.qcow2")));
    assert.equal(header.externalDataFile, true);
    assert.equal(header.dataFileName, join(workDir, "data.img"));
    assert.equal(qcow2Refusal(header), `uses an external data file ${join(workDir, "data.img")}`);
  });

  test("the external data file bit alone, and the name extension alone (even in version 2)", () => {
    const bitOnly = Buffer.from(plainV3);
    bitOnly.writeBigUInt64BE(1n << 2n, 72);
    assert.equal(qcow2Refusal(readQcow2Header(bitOnly)), "uses an external data file");
    const v2WithName = withExtension(plainV2, 72, 0x44415441, "/dev/vda");
    assert.equal(qcow2Refusal(readQcow2Header(v2WithName)), "uses an external data file /dev/vda");
  });

  test("a backing format without a backing file, and unknown incompatible features, are refused too", () => {
    const headerLength = plainV3.readUInt32BE(100);
    const format = withExtension(plainV3, headerLength, 0xe2792aca, "qcow2");
    assert.match(qcow2Refusal(readQcow2Header(format)) ?? "", /names a backing file format \(qcow2\)/);
    const unknown = Buffer.from(plainV3);
    unknown.writeBigUInt64BE(1n << 40n, 72);
    assert.match(
      qcow2Refusal(readQcow2Header(unknown)) ?? "",
      /incompatible features unknown .*0x10000000000/,
    );
    assert.match(qcow2Refusal(readQcow2Header(unknown), "virt-handler") ?? "", /unknown to virt-handler /);
  });

  test("a backing file name is shown printable, and one outside the bytes by its offset", () => {
    const named = Buffer.from(plainV2);
    named.writeBigUInt64BE(400n, 8);
    named.writeUInt32BE(9, 16);
    named.write("/dev/\nvda", 400, "latin1");
    assert.equal(readQcow2Header(named).backingFile, "/dev/?vda");
    const far = Buffer.from(plainV2);
    far.writeBigUInt64BE(1n << 40n, 8);
    far.writeUInt32BE(8, 16);
    assert.match(readQcow2Header(far).backingFile ?? "", /at offset 1099511627776/);
  });

  const malformed: Array<[string, () => Buffer, RegExp]> = [
    ["raw bytes", () => Buffer.alloc(4096), /no qcow2 magic/],
    ["a header cut off", () => plainV3.subarray(0, 50), /cut off/],
    [
      "qcow version 1",
      () => {
        const v1 = Buffer.from(plainV2);
        v1.writeUInt32BE(1, 4);
        return v1;
      },
      /qcow version 1/,
    ],
    [
      "cluster_bits out of range",
      () => {
        const huge = Buffer.from(plainV3);
        huge.writeUInt32BE(30, 20);
        return huge;
      },
      /cluster_bits 30/,
    ],
    [
      "an extension longer than the cluster",
      () => {
        const long = Buffer.from(plainV3);
        const start = long.readUInt32BE(100);
        long.writeUInt32BE(0x44415441, start);
        long.writeUInt32BE(0xffffff, start + 4);
        return long;
      },
      /header extension .* is too long/,
    ],
  ];
  for (const [what, bytes, message] of malformed) {
    test(`throws for ${what}`, () => {
      assert.throws(
        () => readQcow2Header(bytes()),
        (error: unknown) => error instanceof Qcow2HeaderError && message.test(error.message),
      );
    });
  }

  test("hasQcowMagic", () => {
    assert.equal(hasQcowMagic(plainV3), true);
    assert.equal(hasQcowMagic(Buffer.from("QFI")), false);
    assert.equal(hasQcowMagic(Buffer.alloc(512)), false);
  });
});
