import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tarChunks } from "../test/oci-image/index.js";
import { parsePaxRecords, readTar, TarFormatError } from "./tar-reader.js";
import { chunked, rawTar } from "./testing/raw-tar.js";

async function collect(source: AsyncIterable<Buffer>, readContent = true) {
  const out: { path: string; type: string; linkPath: string; content: string }[] = [];
  for await (const { entry, content } of readTar(source)) {
    let text = "";
    if (readContent) for await (const piece of content) text += piece.toString("utf8");
    out.push({ path: entry.path, type: entry.type, linkPath: entry.linkPath, content: text });
  }
  return out;
}

async function buffered(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

describe("readTar", () => {
  const longName = `disk/${"d".repeat(150)}/${"é".repeat(60)}.qcow2`;
  const entries = [
    { path: "disk/", type: "dir" as const },
    { path: "disk/disk.img", type: "file" as const, content: Buffer.alloc(1500, "x") },
    { path: longName, type: "file" as const, content: Buffer.from("long") },
    { path: "link", type: "symlink" as const, linkTarget: `/${"t".repeat(120)}` },
    { path: "hard", type: "hardlink" as const, linkTarget: "disk/disk.img" },
  ];

  it("reads ustar and pax entries in chunks of any size", async () => {
    const archive = await buffered(tarChunks(entries));
    for (const size of [1, 7, 512, 100_000]) {
      const read = await collect(chunked(archive, size));
      assert.deepEqual(
        read.map((e) => [e.path, e.type, e.linkPath, e.content.length]),
        [
          ["disk/", "directory", "", 0],
          ["disk/disk.img", "file", "", 1500],
          [longName, "file", "", 4],
          ["link", "symlink", `/${"t".repeat(120)}`, 0],
          ["hard", "hardlink", "disk/disk.img", 0],
        ],
      );
      assert.equal(read[2]?.content, "long");
    }
  });

  it("skips content the consumer leaves unread", async () => {
    const read = await collect(tarChunks(entries), false);
    assert.equal(read.length, 5);
    assert.equal(read[4]?.path, "hard");
  });

  it("reads GNU long names and long link names, devices, FIFOs and unknown types", async () => {
    const name = `a/${"n".repeat(200)}`;
    const archive = rawTar([
      { name: "././@LongLink", type: "L", content: Buffer.from(`${name}\0`), magic: "gnu" },
      { name: name.slice(0, 100), type: "0", content: Buffer.from("gnu"), magic: "gnu" },
      { name: "././@LongLink", type: "K", content: Buffer.from(`${name}\0`), magic: "gnu" },
      { name: "l", type: "2", linkName: "short", magic: "gnu" },
      { name: "disk/null", type: "3" },
      { name: "disk/fifo", type: "6" },
      { name: "disk/sparse", type: "S" },
    ]);
    const read = await collect(chunked(archive, 300));
    assert.deepEqual(
      read.map((e) => [e.path, e.type, e.linkPath, e.content]),
      [
        [name, "file", "", "gnu"],
        ["l", "symlink", name, ""],
        ["disk/null", "character-device", "", ""],
        ["disk/fifo", "fifo", "", ""],
        ["disk/sparse", "other", "", ""],
      ],
    );
  });

  it("applies the POSIX prefix field", async () => {
    const header = rawTar([{ name: "file", type: "0" }]);
    header.write("some/prefix", 345, "latin1");
    header.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of header.subarray(0, 512)) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
    assert.equal((await collect(chunked(header, 512)))[0]?.path, "some/prefix/file");
  });

  it("accepts an archive without end blocks", async () => {
    const archive = rawTar([{ name: "a", type: "0", content: Buffer.from("x") }]);
    assert.equal((await collect(chunked(archive.subarray(0, 1024), 512))).length, 1);
  });

  const broken: [string, Buffer, RegExp][] = [
    ["a bad checksum", rawTar([{ name: "a", type: "0", badChecksum: true }]), /wrong checksum/],
    [
      "cut-off content",
      rawTar([{ name: "a", type: "0", content: Buffer.alloc(2000) }]).subarray(0, 1024),
      /cut off/,
    ],
    [
      "a cut-off header",
      Buffer.concat([rawTar([{ name: "a", type: "0" }]).subarray(0, 512), Buffer.alloc(100, 1)]),
      /cut off/,
    ],
    [
      "an oversized pax header",
      rawTar([{ name: "p", type: "x", content: Buffer.alloc(1024 * 1024 + 1) }]),
      /larger than/,
    ],
    [
      "a malformed pax record",
      rawTar([{ name: "p", type: "x", content: Buffer.from("99 path=x\n") }]),
      /malformed/,
    ],
  ];
  for (const [what, archive, why] of broken) {
    it(`refuses ${what}`, async () => {
      await assert.rejects(
        collect(chunked(archive, 512)),
        (e: unknown) => e instanceof TarFormatError && why.test(e.message),
      );
    });
  }

  it("parses pax records whose values hold spaces, = and newlines", () => {
    const record = (key: string, value: string) => {
      const rest = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(rest) + 1;
      while (String(length).length + Buffer.byteLength(rest) !== length)
        length = String(length).length + Buffer.byteLength(rest);
      return `${length}${rest}`;
    };
    const data = Buffer.from(record("path", "a b=c\nd") + record("size", "12"));
    assert.deepEqual(parsePaxRecords(data), { path: "a b=c\nd", size: "12" });
  });
});
