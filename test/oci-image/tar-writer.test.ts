import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BLOCK, type TarEntry, TarWriteError, tarChunks } from "./tar-writer.js";

async function tarOf(entries: TarEntry[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of tarChunks(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** GNU tar reads the archive: -P keeps absolute and `..` names as they are. */
function listing(tar: Buffer): string[] {
  return execFileSync("tar", ["-tvP", "--numeric-owner", "-f", "-"], { input: tar })
    .toString("utf8")
    .trimEnd()
    .split("\n");
}

describe("tarChunks", () => {
  it("writes names as given, hostile ones included, and GNU tar reads them back", async () => {
    const longName = `disk/${"d".repeat(120)}/${"x".repeat(90)}.qcow2`;
    const tar = await tarOf([
      { path: "../escape", type: "file", content: Buffer.from("out") },
      { path: "/etc/absolute", type: "file", content: Buffer.from("abs") },
      { path: "/disk/../../x", type: "file" },
      { path: longName, type: "file", content: Buffer.from("long") },
      { path: "disk/link", type: "symlink", linkTarget: `../../${"t".repeat(150)}` },
      { path: "disk/hard", type: "hardlink", linkTarget: "../escape" },
      { path: "disk/", type: "dir", uid: 0, gid: 0 },
      { path: "disk/grüße.raw", type: "file", content: Buffer.from("utf8"), mode: 0o600 },
    ]);
    assert.equal(tar.length % BLOCK, 0);
    const lines = listing(tar);
    assert.equal(lines.length, 8);
    assert.match(lines[0] ?? "", /^-rw-r--r-- 107\/107 +3 .* \.\.\/escape$/);
    assert.match(lines[1] ?? "", / \/etc\/absolute$/);
    assert.match(lines[2] ?? "", /^-rw-r--r-- 107\/107 +0 .* \/disk\/\.\.\/\.\.\/x$/);
    assert.ok(lines[3]?.endsWith(` ${longName}`), "a name over 100 bytes survives through a pax header");
    assert.ok(
      lines[4]?.startsWith("lrwxrwxrwx") && lines[4].endsWith(` disk/link -> ../../${"t".repeat(150)}`),
    );
    assert.match(lines[5] ?? "", /^hrw-r--r-- .* disk\/hard link to \.\.\/escape$/);
    assert.match(lines[6] ?? "", /^drwxr-xr-x 0\/0 +0 .* disk\/$/);
    assert.match(lines[7] ?? "", /^-rw------- 107\/107 +4 .* disk\/grüße\.raw$/);
    const longContent = execFileSync("tar", ["-xOP", "-f", "-", longName], { input: tar }).toString("utf8");
    assert.equal(longContent, "long");
  });

  it("streams content from a file and gives the same bytes as from memory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tar-writer-"));
    try {
      const path = join(dir, "disk.raw");
      const content = Buffer.alloc(BLOCK * 3 + 5, 0xab);
      await writeFile(path, content);
      const fromFile = await tarOf([{ path: "disk/disk.raw", type: "file", content: path }]);
      const fromMemory = await tarOf([{ path: "disk/disk.raw", type: "file", content }]);
      assert.ok(fromFile.equals(fromMemory));
      assert.equal(fromFile.length, BLOCK + BLOCK * 4 + 2 * BLOCK, "header, padded content, end blocks");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses content on a directory and a missing content file, with a reason", async () => {
    await assert.rejects(
      tarOf([{ path: "d/", type: "dir", content: Buffer.from("x") }]),
      (error: unknown) => error instanceof TarWriteError && error.reason === "ContentNotAllowed",
    );
    await assert.rejects(
      tarOf([{ path: "f", type: "file", content: "/nonexistent/disk.qcow2" }]),
      (error: unknown) => error instanceof TarWriteError && error.reason === "ContentMissing",
    );
  });
});
