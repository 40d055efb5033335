// checkHostTools against real directories on a PATH of our own: real executable files, a file that
// is not executable and a directory with a tool's name (neither counts).
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { checkHostTools, describeMissingTools, HOST_TOOLS } from "./host-tools.js";

async function executable(dir: string, name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, "#!/bin/sh\nexit 0\n");
  await chmod(file, 0o755);
  return file;
}

describe("checkHostTools", () => {
  let workDir: string;
  let bin: string;
  let otherBin: string;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "host-tools-"));
    bin = join(workDir, "bin");
    otherBin = join(workDir, "other-bin");
    await mkdir(bin);
    await mkdir(otherBin);
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  test("a PATH with qemu-img but no ISO writer lacks exactly the ISO writer", async () => {
    const qemuImg = await executable(bin, "qemu-img");
    const nft = await executable(bin, "nft");
    const ip = await executable(bin, "ip");
    const sysctl = await executable(bin, "sysctl");
    const zstd = await executable(bin, "zstd");
    await writeFile(join(bin, "xorriso"), "#!/bin/sh\n"); // not executable: not installed
    await mkdir(join(otherBin, "genisoimage")); // a directory is not a program
    const report = await checkHostTools([bin, otherBin].join(delimiter));
    assert.deepEqual(report.found, [qemuImg, nft, ip, sysctl, zstd]);
    assert.deepEqual(
      report.missing.map((tool) => tool.commands),
      [["xorriso", "genisoimage"]],
    );
    assert.equal(
      describeMissingTools(report.missing),
      "xorriso or genisoimage (Debian: xorriso or genisoimage) for cloud-init disks",
    );
  });

  test("either ISO writer is enough, found in any PATH directory", async () => {
    await rm(join(otherBin, "genisoimage"), { recursive: true });
    const genisoimage = await executable(otherBin, "genisoimage");
    const report = await checkHostTools([bin, otherBin].join(delimiter));
    assert.deepEqual(report.missing, []);
    assert.deepEqual(report.found, [
      join(bin, "qemu-img"),
      genisoimage,
      join(bin, "nft"),
      join(bin, "ip"),
      join(bin, "sysctl"),
      join(bin, "zstd"),
    ]);
  });

  test("an empty PATH lacks every tool", async () => {
    const report = await checkHostTools("");
    assert.equal(report.missing.length, HOST_TOOLS.length);
    assert.match(describeMissingTools(report.missing), /^qemu-img \(Debian: qemu-utils\) for .*; xorriso/);
  });

  test("npm run setup-host installs a package for every tool", async () => {
    const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
    const script = await readFile(join(root, "scripts/setup-host.mjs"), "utf8");
    const list = /const PACKAGES = \[([^\]]*)\]/.exec(script)?.[1] ?? "";
    const packages = [...list.matchAll(/"([a-z0-9.+-]+)"/g)].map((match) => match[1]);
    assert.ok(packages.length > 3, `setup-host's package list was read (${packages.join(", ")})`);
    for (const tool of HOST_TOOLS) {
      assert.ok(
        tool.debianPackages.some((name) => packages.includes(name)),
        `setup-host installs one of ${tool.debianPackages.join(", ")} (for ${tool.commands.join(" or ")})`,
      );
    }
  });
});
