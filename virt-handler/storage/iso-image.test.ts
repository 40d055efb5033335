// The ISO writer and qemu-img are looked up, never installed: on a PATH without them the VM file
// is not made, nothing is left behind, and the VMI's failure says which program the node lacks.
// The PATH of this test process is swapped for a directory of our own (real, empty) for those cases.
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LocalImageStore } from "../container-disk/local-image-store.js";
import { VmiConversionError } from "../converter/conversion-error.js";
import { vmiWithSpec } from "../converter/testing/test-vmis.js";
import { HostToolMissingError, runCommand } from "./host-commands.js";
import { createIsoImage } from "./iso-image.js";
import { prepareVolumes } from "./prepare-volumes.js";

const FILES = new Map([["user-data", "#cloud-config\n"]]);

describe("host tools that are not installed", () => {
  let workDir: string;
  let emptyBin: string;
  const hostPath = process.env.PATH;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "iso-image-"));
    emptyBin = await mkdtemp(join(workDir, "bin-"));
  });
  after(() => rm(workDir, { recursive: true, force: true }));

  /** Runs `body` with PATH holding only an empty directory. */
  async function withoutTools<T>(body: () => Promise<T>): Promise<T> {
    process.env.PATH = emptyBin;
    try {
      return await body();
    } finally {
      process.env.PATH = hostPath;
    }
  }

  test("no ISO writer: HostToolMissingError naming both, the fix, and no file left behind", async () => {
    const outDir = await mkdtemp(join(workDir, "out-"));
    const error = await withoutTools(() =>
      createIsoImage({ label: "cidata", files: FILES, path: join(outDir, "cidata.iso") }).then(
        () => undefined,
        (rejection: unknown) => rejection,
      ),
    );
    assert.ok(error instanceof HostToolMissingError, `a HostToolMissingError, not ${String(error)}`);
    assert.equal(error.reason, "HostToolMissing");
    assert.deepEqual(error.commands, ["xorriso", "genisoimage"]);
    assert.match(error.message, /xorriso or genisoimage is not installed on this node/);
    assert.match(error.message, /npm run setup-host, or the virt-handler image/);
    assert.deepEqual(await readdir(outDir), []);
  });

  test("a program not on PATH (qemu-img's case) is a HostToolMissingError, not a spawn error", async () => {
    const error = await withoutTools(() =>
      runCommand("qemu-img", ["--version"]).then(
        () => undefined,
        (rejection: unknown) => rejection,
      ),
    );
    assert.ok(error instanceof HostToolMissingError, `a HostToolMissingError, not ${String(error)}`);
    assert.deepEqual(error.commands, ["qemu-img"]);
  });

  test("a VMI's cloud-init volume on such a node fails with reason HostToolMissing", async () => {
    const vmi = vmiWithSpec({
      domain: { resources: { requests: { memory: "64Mi" } }, devices: { disks: [{ name: "cidata" }] } },
      volumes: [{ name: "cidata", cloudInitNoCloud: { userData: "#cloud-config\n" } }],
    });
    const vmDir = join(workDir, "vm");
    const images = new LocalImageStore(join(workDir, "images"));
    const error = await withoutTools(() =>
      prepareVolumes(vmi, { vmDir, images }).then(
        () => undefined,
        (rejection: unknown) => rejection,
      ),
    );
    assert.ok(error instanceof VmiConversionError, `a VmiConversionError, not ${String(error)}`);
    assert.equal(error.reason, "HostToolMissing");
    assert.match(error.message, /^volume cidata: xorriso or genisoimage is not installed on this node/);
    assert.doesNotMatch(error.message, /apt/);
  });

  test("with the host's PATH (npm run setup-host installs genisoimage) the image is written", async () => {
    const iso = join(workDir, "cidata.iso");
    await createIsoImage({ label: "cidata", files: FILES, path: iso });
    const description = await runCommand("isoinfo", ["-d", "-i", iso]);
    assert.match(description, /^Volume id: cidata$/m);
  });
});
