import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readModinfoField, resolveModuleLoadOrder } from "./kernel-modules.js";

/** A stand-in .ko: some bytes, then a .modinfo-like run of NUL-separated key=value strings. */
function fakeModule(name: string, depends: string[]): Buffer {
  return Buffer.from(
    `\x7fELF junk\0license=GPL\0depends=${depends.join(",")}\0name=${name}\0vermagic=6.1\0`,
    "latin1",
  );
}

describe("resolveModuleLoadOrder", () => {
  let modulesDir: string;
  const modules: Record<string, string[]> = {
    "drivers/virtio/virtio_ring.ko": [],
    "drivers/virtio/virtio.ko": ["virtio_ring"],
    "drivers/block/virtio_blk.ko": ["virtio", "virtio_ring"],
    "fs/ext4/ext4.ko": ["jbd2", "crc16"],
    "fs/jbd2/jbd2.ko": [],
    "lib/crc16.ko": [],
    "drivers/scsi/sd_mod.ko": ["t10-pi"],
    "block/t10-pi.ko": [],
    "drivers/cycle/a.ko": ["b"],
    "drivers/cycle/b.ko": ["a"],
    "drivers/net/needs_builtin.ko": ["builtin_thing"],
  };

  before(async () => {
    modulesDir = await mkdtemp(join(tmpdir(), "modules-test-"));
    for (const [path, depends] of Object.entries(modules)) {
      const file = join(modulesDir, "kernel", path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, fakeModule(path.split("/").pop()?.replace(".ko", "") ?? "", depends));
    }
    await writeFile(join(modulesDir, "kernel/lib/packed.ko.xz"), "xz");
    await writeFile(join(modulesDir, "modules.builtin"), "kernel/drivers/base/builtin_thing.ko\n");
  });
  after(() => rm(modulesDir, { recursive: true, force: true }));

  test("puts each module after its dependencies, in the order asked, once", async () => {
    const order = await resolveModuleLoadOrder(modulesDir, ["virtio_blk", "ext4", "virtio"]);
    assert.deepEqual(
      order.map((module) => module.name),
      ["virtio_ring", "virtio", "virtio_blk", "jbd2", "crc16", "ext4"],
    );
    assert.deepEqual(order[2]?.dependencies, ["virtio", "virtio_ring"]);
    assert.ok(order[0]?.path.endsWith("drivers/virtio/virtio_ring.ko"));
  });

  test("treats - and _ in names alike", async () => {
    const order = await resolveModuleLoadOrder(modulesDir, ["sd-mod"]);
    assert.deepEqual(
      order.map((module) => module.name),
      ["t10_pi", "sd_mod"],
    );
  });

  test("skips built-in modules", async () => {
    const order = await resolveModuleLoadOrder(modulesDir, ["needs_builtin", "builtin_thing"]);
    assert.deepEqual(
      order.map((module) => module.name),
      ["needs_builtin"],
    );
  });

  test("names the missing module, who needs it, and compressed-only modules", async () => {
    await assert.rejects(
      resolveModuleLoadOrder(modulesDir, ["nonexistent"]),
      /kernel module nonexistent not found/,
    );
    await assert.rejects(resolveModuleLoadOrder(modulesDir, ["packed"]), /only a compressed \.ko is shipped/);
  });

  test("reports a dependency cycle instead of looping", async () => {
    await assert.rejects(resolveModuleLoadOrder(modulesDir, ["a"]), /cycle: a → b → a/);
  });
});

test("readModinfoField finds a key only at the start of a modinfo string", () => {
  const bytes = Buffer.from("xxdepends=wrong\0depends=virtio,virtio_ring\0alias=x\0", "latin1");
  assert.equal(readModinfoField(bytes, "depends"), "virtio,virtio_ring");
  assert.equal(readModinfoField(bytes, "softdep"), undefined);
});
