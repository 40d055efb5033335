import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { detectKvm } from "./kvm-detection.js";

describe("detectKvm", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "kvm-detection-"));
    await writeFile(join(dir, "kvm"), "");
    await writeFile(join(dir, "cpuinfo-plain"), "processor : 0\nflags : fpu sse2 lm\n");
    await writeFile(join(dir, "cpuinfo-vmx"), "processor : 0\nflags : fpu vmx lm\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("no device: no KVM", async () => {
    const status = await detectKvm({
      devicePath: join(dir, "missing"),
      cpuinfoPath: join(dir, "cpuinfo-vmx"),
    });
    assert.equal(status.usable, false);
    assert.match(status.detail, /there is no/);
  });

  test("a device but no vmx/svm (these machines): no KVM, and no probe is run", async () => {
    let probed = false;
    const status = await detectKvm({
      devicePath: join(dir, "kvm"),
      cpuinfoPath: join(dir, "cpuinfo-plain"),
      bootProbe: async () => {
        probed = true;
        return { usable: true, detail: "probe" };
      },
    });
    assert.equal(status.usable, false);
    assert.match(status.detail, /no vmx\/svm/);
    assert.equal(probed, false);
  });

  test("device and vmx: the boot probe decides", async () => {
    const options = { devicePath: join(dir, "kvm"), cpuinfoPath: join(dir, "cpuinfo-vmx") };
    const fails = await detectKvm({ ...options, bootProbe: async () => ({ usable: false, detail: "hung" }) });
    assert.deepEqual(fails, { usable: false, detail: "hung" });
    const works = await detectKvm({
      ...options,
      bootProbe: async () => ({ usable: true, detail: "banner" }),
    });
    assert.equal(works.usable, true);
  });

  test("this machine: /dev/kvm exists, yet KVM is not reported usable", async () => {
    const status = await detectKvm();
    assert.equal(status.usable, false, status.detail);
  });
});
