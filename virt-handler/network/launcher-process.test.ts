// findLauncherNetns against a /proc of our own: real files and symlinks standing in for processes
// (a namespace's identity is its inode, here the inode of a file each "process" links to).
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { findLauncherNetns } from "./launcher-process.js";

const POD = "0b3c9e5e-0000-4000-8000-000000000001";

describe("findLauncherNetns", () => {
  let proc: string;
  let namespaces: string;
  const netns = (name: string) => join(namespaces, name);
  async function process(pid: string, environ: string[], namespace: string, comm = "sh"): Promise<void> {
    await mkdir(join(proc, pid, "ns"), { recursive: true });
    await writeFile(join(proc, pid, "environ"), environ.map((entry) => `${entry}\0`).join(""));
    await writeFile(join(proc, pid, "comm"), `${comm}\n`);
    await symlink(netns(namespace), join(proc, pid, "ns", "net"));
  }

  before(async () => {
    proc = await mkdtemp(join(tmpdir(), "fake-proc-"));
    namespaces = await mkdtemp(join(tmpdir(), "fake-netns-"));
    for (const name of ["node", "handler", "pod-a", "pod-b"]) await writeFile(netns(name), name);
    await process("1", ["PATH=/bin"], "node", "init");
    await process("50", [], "node", "libvirtd");
    await process("60", ["HOME=/"], "handler", "node");
    await symlink(join(proc, "60"), join(proc, "self"));
    await process("100", ["PATH=/bin", `KUBEVIRT_LAUNCHER_POD_UID=${POD}`], "pod-a");
    await process("101", [`KUBEVIRT_LAUNCHER_POD_UID=${POD}`, "X=1"], "pod-a", "busybox");
    await process("102", [`NOT_KUBEVIRT_LAUNCHER_POD_UID=${POD}`], "pod-b");
  });
  after(async () => {
    await rm(proc, { recursive: true, force: true });
    await rm(namespaces, { recursive: true, force: true });
  });

  test("the processes carrying the pod's uid share one namespace: that one, through a pid of theirs", async () => {
    const found = await findLauncherNetns(POD, proc);
    assert.ok(found);
    assert.ok(found.pid === 100 || found.pid === 101, `pid ${found.pid}`);
    assert.equal(found.path, join(proc, String(found.pid), "ns", "net"));
  });

  test("no process of the pod yet: undefined (the caller retries)", async () => {
    assert.equal(await findLauncherNetns("0b3c9e5e-0000-4000-8000-00000000ffff", proc), undefined);
  });

  test("a second namespace claiming the uid (a copied environment): refused, never chosen", async () => {
    await process("103", [`KUBEVIRT_LAUNCHER_POD_UID=${POD}`], "pod-b");
    await assert.rejects(findLauncherNetns(POD, proc), {
      name: "LauncherNetnsError",
      message: new RegExp(`processes in 2 network namespaces claim launcher pod ${POD}`),
    });
    await rm(join(proc, "103"), { recursive: true });
  });

  test("a launcher in the node's (libvirtd's) namespace is refused: the VM's traffic must stay in a pod", async () => {
    const other = "0b3c9e5e-0000-4000-8000-000000000002";
    await process("104", [`KUBEVIRT_LAUNCHER_POD_UID=${other}`], "node");
    await assert.rejects(findLauncherNetns(other, proc), { name: "LauncherNetnsError", message: /node's/ });
  });
});
