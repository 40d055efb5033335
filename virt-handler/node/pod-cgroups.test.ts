// launcherCgroupTargets and moveIntoCgroups on a /proc and a cgroup root of our own (real files in
// a temporary directory, shaped as the kernel shows them). The move into real cgroups, under a
// real kubelet, is the end-to-end test's (test/e2e/real-kubernetes.serial.test.ts).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  isInCgroups,
  isPodCgroupPath,
  launcherCgroupTargets,
  moveIntoCgroups,
  PodCgroupError,
  parseProcCgroup,
} from "./pod-cgroups.js";

const POD_UID = "3f1c2b7e-9d4a-4c1e-8f00-0123456789ab";
const CONTAINER = `/kubepods/burstable/pod${POD_UID}/4b1d0c0ffee`;
/** /proc/PID/cgroup of a process in the compute container, on this machine's v1 hierarchies. */
const LAUNCHER_CGROUP = [
  "9:name=systemd:/",
  `8:pids:${CONTAINER}`,
  `7:blkio:${CONTAINER}`,
  `6:freezer:${CONTAINER}`,
  `5:devices:${CONTAINER}`,
  `4:memory:${CONTAINER}`,
  `3:cpuset:${CONTAINER}`,
  `2:cpuacct:${CONTAINER}`,
  `1:cpu:${CONTAINER}`,
  // A hybrid host also lists its tracking-only v2 hierarchy.
  `0::${CONTAINER}`,
  "",
].join("\n");

describe("QEMU's launcher pod cgroups", () => {
  let dir: string;
  let proc: string;
  let cgroupRoot: string;
  const processWith = async (pid: number, cgroup: string) => {
    await mkdir(join(proc, String(pid)), { recursive: true });
    await writeFile(join(proc, String(pid), "cgroup"), cgroup);
  };
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pod-cgroups-"));
    proc = join(dir, "proc");
    cgroupRoot = join(dir, "cgroup");
    for (const hierarchy of ["pids", "blkio", "memory", "cpuacct", "cpu", "devices"]) {
      await mkdir(join(cgroupRoot, hierarchy, CONTAINER), { recursive: true });
      await writeFile(join(cgroupRoot, hierarchy, CONTAINER, "cgroup.procs"), "");
    }
    await processWith(100, LAUNCHER_CGROUP);
    await processWith(101, LAUNCHER_CGROUP);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("/proc/PID/cgroup lines: v1 hierarchies by their controllers, v2's by the empty name", () => {
    const parsed = parseProcCgroup(LAUNCHER_CGROUP);
    assert.equal(parsed.get("memory"), CONTAINER);
    assert.equal(parsed.get(""), CONTAINER);
  });

  test("a pod's cgroup path by either kubelet driver's naming, and no other pod's", () => {
    assert.ok(isPodCgroupPath(CONTAINER, POD_UID));
    const systemd = `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${POD_UID.replaceAll("-", "_")}.slice/cri-containerd-4b1d.scope`;
    assert.ok(isPodCgroupPath(systemd, POD_UID));
    assert.ok(!isPodCgroupPath(CONTAINER, "3f1c2b7e-9d4a-4c1e-8f00-000000000000"));
    assert.ok(!isPodCgroupPath("/", POD_UID));
  });

  test("the compute container's accounting cgroups: memory, cpu, cpuacct, pids, blkio; never devices", async () => {
    const targets = await launcherCgroupTargets({
      launcherPids: [100, 101],
      podUid: POD_UID,
      procDir: proc,
      cgroupRoot,
    });
    assert.deepEqual(targets?.map((target) => target.hierarchy).sort(), [
      "blkio",
      "cpu",
      "cpuacct",
      "memory",
      "pids",
    ]);
    assert.ok(targets?.every((target) => target.path === CONTAINER));
    assert.equal(
      targets?.find((target) => target.hierarchy === "memory")?.dir,
      join(cgroupRoot, "memory", CONTAINER),
    );
  });

  test("on a cgroup v2 host, the one unified cgroup", async () => {
    const unified = `/kubepods.slice/kubepods-pod${POD_UID.replaceAll("-", "_")}.slice/cri-containerd-4b1d.scope`;
    await mkdir(join(cgroupRoot, unified), { recursive: true });
    await writeFile(join(cgroupRoot, unified, "cgroup.procs"), "");
    await processWith(150, `0::${unified}\n`);
    const targets = await launcherCgroupTargets({
      launcherPids: [150],
      podUid: POD_UID,
      procDir: proc,
      cgroupRoot,
    });
    assert.deepEqual(targets, [{ hierarchy: "", path: unified, dir: join(cgroupRoot, unified) }]);
  });

  test("a launcher without cgroups of its own (the dev cluster's pods) gets none", async () => {
    await processWith(200, "4:memory:/process_api/abc\n1:cpu:/\n");
    assert.equal(
      await launcherCgroupTargets({ launcherPids: [200], podUid: POD_UID, procDir: proc, cgroupRoot }),
      undefined,
    );
    assert.equal(
      await launcherCgroupTargets({ launcherPids: [], podUid: POD_UID, procDir: proc, cgroupRoot }),
      undefined,
    );
  });

  test("processes in two different cgroups claiming the pod: refused, never chosen", async () => {
    await processWith(
      300,
      LAUNCHER_CGROUP.replace(/4:memory:.*/, "4:memory:/kubepods/besteffort/podother/1"),
    );
    await assert.rejects(
      launcherCgroupTargets({ launcherPids: [100, 300], podUid: POD_UID, procDir: proc, cgroupRoot }),
      PodCgroupError,
    );
  });

  test("the move writes QEMU's pid to each cgroup and moves its memory's charge along", async () => {
    const targets = await launcherCgroupTargets({
      launcherPids: [100],
      podUid: POD_UID,
      procDir: proc,
      cgroupRoot,
    });
    assert.ok(targets);
    await processWith(
      4242,
      "4:memory:/machine/qemu-1-vm.libvirt-qemu\n1:cpu:/machine/qemu-1-vm.libvirt-qemu/emulator\n",
    );
    assert.equal(await isInCgroups(4242, targets, proc), false);
    await moveIntoCgroups(4242, targets);
    for (const target of targets)
      assert.equal(await readFile(join(target.dir, "cgroup.procs"), "utf8"), "4242");
    assert.equal(
      await readFile(join(cgroupRoot, "memory", CONTAINER, "memory.move_charge_at_immigrate"), "utf8"),
      "1",
    );
    await processWith(4242, LAUNCHER_CGROUP);
    assert.equal(await isInCgroups(4242, targets, proc), true);
  });
});
