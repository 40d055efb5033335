import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { type CpioEntry, cpioNewcArchive, directoryCpioEntries } from "./cpio-newc.js";

interface ParsedEntry {
  name: string;
  mode: number;
  links: number;
  rdevMajor: number;
  rdevMinor: number;
  data: Buffer;
}

/** An independent reader of the newc format, following the kernel's buffer-format.rst. */
function parseNewc(archive: Buffer): ParsedEntry[] {
  const entries: ParsedEntry[] = [];
  let offset = 0;
  const align = (n: number) => (n + 3) & ~3;
  for (;;) {
    assert.equal(archive.toString("ascii", offset, offset + 6), "070701", `magic at ${offset}`);
    const start = offset;
    const field = (index: number) =>
      Number.parseInt(archive.toString("ascii", start + 6 + index * 8, start + 14 + index * 8), 16);
    const nameSize = field(11);
    const fileSize = field(6);
    const name = archive.toString("utf8", offset + 110, offset + 110 + nameSize - 1);
    assert.equal(archive[offset + 110 + nameSize - 1], 0, "names end with NUL");
    const dataStart = align(offset + 110 + nameSize);
    const data = archive.subarray(dataStart, dataStart + fileSize);
    offset = align(dataStart + fileSize);
    if (name === "TRAILER!!!") break;
    entries.push({ name, mode: field(1), links: field(4), rdevMajor: field(9), rdevMinor: field(10), data });
  }
  assert.equal(offset, archive.length, "nothing after the trailer");
  return entries;
}

describe("cpioNewcArchive", () => {
  test("writes every entry kind so that a newc reader gets them back", () => {
    const entries: CpioEntry[] = [
      { kind: "directory", path: "bin", mode: 0o755 },
      { kind: "file", path: "bin/tool", mode: 0o755, data: Buffer.from("#!/bin/sh\necho odd length\n") },
      { kind: "symlink", path: "bin/sh", target: "tool" },
      { kind: "char-device", path: "console", mode: 0o600, major: 5, minor: 1 },
      { kind: "file", path: "empty", mode: 0o644, data: Buffer.alloc(0) },
    ];
    const parsed = parseNewc(cpioNewcArchive(entries));
    assert.deepEqual(
      parsed.map((entry) => [entry.name, entry.mode.toString(8)]),
      [
        ["bin", "40755"],
        ["bin/tool", "100755"],
        ["bin/sh", "120777"],
        ["console", "20600"],
        ["empty", "100644"],
      ],
    );
    assert.equal(parsed[1]?.data.toString(), "#!/bin/sh\necho odd length\n");
    assert.equal(parsed[2]?.data.toString(), "tool");
    assert.deepEqual([parsed[3]?.rdevMajor, parsed[3]?.rdevMinor], [5, 1]);
    assert.equal(parsed[4]?.data.length, 0);
  });

  test("archives a directory tree parents first, sorted, keeping modes and links", async () => {
    const root = await mkdtemp(join(tmpdir(), "cpio-test-"));
    try {
      await mkdir(join(root, "etc/init.d"), { recursive: true });
      await writeFile(join(root, "etc/init.d/rcS"), "#!/bin/sh\n", { mode: 0o755 });
      await writeFile(join(root, "etc/profile"), "PS1=x\n", { mode: 0o644 });
      await symlink("etc/profile", join(root, "profile-link"));
      const entries = await directoryCpioEntries(root);
      assert.deepEqual(
        entries.map((entry) => `${entry.kind} ${entry.path}`),
        [
          "directory etc",
          "directory etc/init.d",
          "file etc/init.d/rcS",
          "file etc/profile",
          "symlink profile-link",
        ],
      );
      const rcS = entries.find((entry) => entry.path === "etc/init.d/rcS");
      assert.equal(rcS?.kind === "file" ? rcS.mode : undefined, 0o755);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
