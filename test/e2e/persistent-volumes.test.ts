/**
 * VMs on PersistentVolumeClaims, end to end on `npm start`'s stack with the real kubectl, libvirt
 * and QEMU (TCG): the dev cluster's default StorageClass provisions a claim on the node the VM's
 * launcher pod lands on (WaitForFirstConsumer), the guest's writes to its claim disk survive
 * `virtctl restart`, a stop/start and kill -9 of virt-handler and virt-controller; a VM naming a
 * missing claim shows ErrorPvcNotFound and starts once the claim exists; a second VM on a
 * ReadWriteOnce claim in use waits with the reason; deleting the VM keeps the claim it does not
 * own, and deleting the claim deletes its volume and data. Runs as root. The tests run in order and
 * build on each other.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import { stringify } from "yaml";
import { vmiKind, vmKind } from "../../api/index.js";
import { defineKind, persistentVolumeClaimKind } from "../../runtime/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { guestShell } from "./testing/guest-shell.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 120_000;

/** The dev cluster's process: the child of start.mjs that runs dev-cluster/main.js. */
function devClusterPid(startPid: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== startPid) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.some((arg) => arg.endsWith("dev-cluster/main.js"))) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}
const persistentVolumeKind = defineKind<IPersistentVolume>({
  group: "",
  version: "v1",
  kind: "PersistentVolume",
  plural: "persistentvolumes",
  namespaced: false,
});
/** The claim disk is the VM's third virtio disk (after the containerDisk and cloud-init's). */
const CLAIM_DEVICE = "/dev/vdc";

describe("VMs on PersistentVolumeClaims", { timeout: 900_000 }, () => {
  const namespace = `claims-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const marker = `kvts-${Math.random().toString(36).slice(2, 10)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const requireDomains = () => {
    if (!domains) throw new Error("no libvirt connection");
    return domains;
  };
  const apply = (manifest: object) => kubectl.ok(["apply", "-f", "-"], { input: stringify(manifest) });
  const claim = (name: string, size = "64Mi") => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } } },
  });
  /** examples/vm-tiny.yaml with a third disk on `claimName`. */
  const vmOnClaim = (name: string, claimName: string) => {
    const vm = tinyVm(requireStack().repoRoot, { name, namespace });
    const template = vm.spec.template.spec as unknown as {
      domain: { devices: { disks: object[] } };
      volumes: object[];
    };
    template.domain.devices.disks.push({ name: "data", disk: { bus: "virtio" } });
    template.volumes.push({ name: "data", persistentVolumeClaim: { claimName } });
    return vm;
  };
  const readClaim = (name: string) =>
    requireStack().client.resource(persistentVolumeClaimKind).get({ namespace, name });
  const readVmi = (name: string) => requireStack().client.resource(vmiKind).get({ namespace, name });
  const readVolume = (name: string) => requireStack().client.resource(persistentVolumeKind).get({ name });
  const virtctl = async (...args: string[]) => {
    const result = await runVirtctl({ ...requireStack(), namespace }, args);
    assert.equal(result.code, 0, `virtctl ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  /** The running guest's console, after its boot banner (unless `booted`); `notId` waits for a new QEMU. */
  const guestConsole = async (vmName: string, notId?: number, booted = false): Promise<GuestConsole> => {
    const name = requireDomains().domainName(vmName);
    const console = await requireDomains().attachConsole(name, {
      timeoutMs: BOOT_MS,
      ...(notId === undefined ? {} : { notId }),
    });
    // A guest that booted before the console was attached prints no banner again.
    if (!booted) await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    return console;
  };
  /** What the first bytes of the guest's claim disk say (the marker is written split, so the echo never matches). */
  const readMarker = async (console: GuestConsole): Promise<boolean> => {
    const output = await guestShell(console, `dd if=${CLAIM_DEVICE} bs=64 count=1 2>/dev/null | head -c 13`);
    return output.includes(marker);
  };
  const domainId = (vmName: string) =>
    requireDomains().domainId(requireDomains().domainName(vmName)) ?? undefined;

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-claims-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "claims", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    await tearDownRun({ label: "claims", namespace, workDir, stack, kubectl, domains });
  });

  test("the dev cluster has a default StorageClass that binds on the first consumer's node", async () => {
    const classes = await kubectl.ok(["get", "storageclass"]);
    assert.match(
      classes,
      /local-path \(default\)\s+kubevirt-ts\.io\/local-path\s+Delete\s+WaitForFirstConsumer/,
    );
    await apply(claim("disk-a"));
    const pending = await kubectl.ok(["get", "pvc", "disk-a", "-n", namespace]);
    assert.match(pending, /disk-a\s+Pending\s+.*local-path/, "no consumer yet: the claim waits");
  });

  test("a VM on the claim boots; the claim binds on the VM's node, and the guest sees the disk", async () => {
    await apply(vmOnClaim("vm-a", "disk-a"));
    const vmi = await objects.waitForVmiPhase("vm-a", "Running", { timeoutMs: BOOT_MS });
    const bound = await readClaim("disk-a");
    assert.equal(bound.status?.phase, "Bound");
    assert.equal(bound.metadata?.annotations?.["volume.kubernetes.io/selected-node"], vmi.status?.nodeName);
    const volume = await readVolume(bound.spec?.volumeName ?? "");
    const affinity = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.[0];
    assert.deepEqual(affinity?.values, [vmi.status?.nodeName], "the volume is on the VM's node");
    const diskImage = join(volume.spec?.local?.path ?? "", "disk.img");
    assert.ok(existsSync(diskImage), `virt-handler made the claim's disk ${diskImage}`);
    const console = await guestConsole("vm-a");
    try {
      // 64Mi less the 6 % file system share, in whole MiB: 60 MiB, 122880 sectors.
      assert.match(await guestShell(console, `cat /sys/block/vdc/size`), /122880/);
      const [head, tail] = [marker.slice(0, 5), marker.slice(5)];
      await guestShell(
        console,
        `printf '%s%s' '${head}' '${tail}' | dd of=${CLAIM_DEVICE} bs=64 conv=sync,fsync 2>/dev/null; sync`,
      );
      assert.ok(await readMarker(console), "the guest reads back what it wrote");
    } finally {
      console.close();
    }
  });

  test("what the guest wrote survives virtctl restart and a stop/start", async () => {
    const before = (await objects.vmi("vm-a"))?.metadata?.uid;
    const oldId = domainId("vm-a");
    assert.match(await virtctl("restart", "vm-a"), /scheduled to restart/);
    await objects.waitForVmiPhase("vm-a", "Running", {
      timeoutMs: BOOT_MS,
      ...(before ? { notUid: before } : {}),
    });
    let console = await guestConsole("vm-a", oldId);
    try {
      assert.ok(await readMarker(console), "the marker is on the disk after the restart");
    } finally {
      console.close();
    }
    await virtctl("stop", "vm-a");
    await objects.waitForVmStatus("vm-a", "Stopped", BOOT_MS);
    const stoppedId = domainId("vm-a");
    await virtctl("start", "vm-a");
    await objects.waitForVmiPhase("vm-a", "Running", { timeoutMs: BOOT_MS });
    console = await guestConsole("vm-a", stoppedId);
    try {
      assert.ok(await readMarker(console), "the marker is on the disk after a stop and a start");
    } finally {
      console.close();
    }
  });

  test("a second VM on the ReadWriteOnce claim in use waits, saying which VMI holds it", async () => {
    await apply(vmOnClaim("vm-b", "disk-a"));
    const waiting = await pollUntil(
      "vm-b's VMI to say the claim is in use",
      async () => {
        const vmi = await objects.vmi("vm-b");
        const synchronized = vmi?.status?.conditions?.find((condition) => condition.type === "Synchronized");
        return synchronized?.reason === "FailedPvcInUse" ? synchronized : undefined;
      },
      { timeoutMs: 60_000 },
    );
    assert.match(
      waiting.message ?? "",
      new RegExp(`PVC ${namespace}/disk-a is ReadWriteOnce and in use by VMI ${namespace}/vm-a`),
    );
    assert.equal((await objects.launcherPods("vm-b")).length, 0, "no launcher pod for the second VM");
    await kubectl.ok(["delete", "vm", "vm-b", "-n", namespace, "--wait=true", "--timeout=60s"]);
  });

  test("kill -9 of virt-handler and virt-controller: the VM keeps its disk and runs on", async () => {
    const both = () => [
      ...componentPids(requireStack(), "virt-handler"),
      ...componentPids(requireStack(), "virt-controller"),
    ];
    const pids = both();
    assert.ok(pids.length >= 2, `found ${pids.length} component processes`);
    const id = domainId("vm-a");
    for (const pid of pids) process.kill(pid, "SIGKILL");
    await pollUntil(
      "new virt-handler and virt-controller processes",
      () => {
        const now = both();
        return now.length >= 2 && now.every((pid) => !pids.includes(pid)) ? true : undefined;
      },
      { timeoutMs: 120_000 },
    );
    await objects.waitForVmStatus("vm-a", "Running", 60_000);
    assert.equal(domainId("vm-a"), id, "the same QEMU runs on");
    const console = await guestConsole("vm-a", undefined, true);
    try {
      assert.ok(await readMarker(console), "the marker is still on the disk");
    } finally {
      console.close();
    }
  });

  test("virtctl addvolume puts a claim's disk into the running guest, and removevolume takes it away", async () => {
    /** The attachment pods, as kubectl names them (`pod/hp-volume-…`). */
    const listAttachmentPods = () =>
      kubectl.ok(["get", "pods", "-n", namespace, "-l", "kubevirt.io=hotplug-disk", "-o", "name"]);
    await apply(claim("hot-a", "32Mi"));
    const id = domainId("vm-a");
    assert.match(
      await virtctl("addvolume", "vm-a", "--volume-name=hot-a"),
      /Successfully submitted add volume request to VM vm-a for volume hot-a/,
    );
    const ready = await pollUntil(
      "hot-a to be Ready in vm-a's volumeStatus",
      async () => {
        const entry = (await readVmi("vm-a")).status?.volumeStatus?.find((item) => item.name === "hot-a");
        return entry?.phase === "Ready" ? entry : undefined;
      },
      { timeoutMs: 120_000 },
    );
    assert.equal(ready.target, "sda", "the first disk on the SCSI controller");
    assert.match(ready.hotplugVolume?.attachPodName ?? "", /^hp-volume-/);
    const attachmentPods = await listAttachmentPods();
    assert.match(attachmentPods, /pod\/hp-volume-/);
    assert.equal(
      (await readClaim("hot-a")).status?.phase,
      "Bound",
      "the attachment pod was the claim's first consumer",
    );
    const vm = await requireStack().client.resource(vmKind).get({ namespace, name: "vm-a" });
    assert.ok(
      vm.spec?.template?.spec?.volumes?.some(
        (volume) => volume.name === "hot-a" && volume.persistentVolumeClaim?.hotpluggable === true,
      ),
      "the VM keeps the volume for its next start",
    );
    const console = await guestConsole("vm-a", undefined, true);
    try {
      // 32Mi less the 6 % file system share, in whole MiB: 30 MiB, 61440 sectors. The guest's SCSI
      // layer adds the disk when QEMU signals it: looked for for a while.
      const waitFor = (present: boolean) =>
        `for i in $(seq 60); do [ ${present ? "-e" : "! -e"} /sys/block/sda ] && break; sleep 1; done`;
      assert.match(await guestShell(console, `${waitFor(true)}; cat /sys/block/sda/size`), /61440/);
      assert.match(
        await virtctl("removevolume", "vm-a", "--volume-name=hot-a", "--persist"),
        /Successfully submitted remove volume request to VM vm-a for volume hot-a/,
      );
      await pollUntil(
        "hot-a to leave vm-a's volumeStatus",
        async () => {
          const vmi = await readVmi("vm-a");
          return vmi.status?.volumeStatus?.some((item) => item.name === "hot-a") ? undefined : true;
        },
        { timeoutMs: 120_000 },
      );
      // Split, so the echoed command line never matches.
      const gone = await guestShell(console, `${waitFor(false)}; [ -e /sys/block/sda ] || echo "sda-"'gone'`);
      assert.match(gone, /sda-gone/, "the guest no longer has the disk");
    } finally {
      console.close();
    }
    await pollUntil(
      "the attachment pod to go",
      async () => {
        const pods = await listAttachmentPods();
        return pods.trim() === "" ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const after = await requireStack().client.resource(vmKind).get({ namespace, name: "vm-a" });
    assert.ok(
      !after.spec?.template?.spec?.volumes?.some((volume) => volume.name === "hot-a"),
      "--persist took the volume out of the VM too",
    );
    assert.equal(domainId("vm-a"), id, "the same QEMU ran throughout: no restart");
    assert.equal((await readClaim("hot-a")).status?.phase, "Bound", "the claim stays");
  });

  test("a VM naming a missing claim shows ErrorPvcNotFound, and boots once the claim exists", async () => {
    await apply(vmOnClaim("vm-late", "late-claim"));
    const vm = await objects.waitForVmStatus("vm-late", "ErrorPvcNotFound", 60_000);
    assert.equal(vm.status?.printableStatus, "ErrorPvcNotFound");
    const vmi = await objects.vmi("vm-late");
    const synchronized = vmi?.status?.conditions?.find((condition) => condition.type === "Synchronized");
    assert.match(synchronized?.message ?? "", new RegExp(`PVC ${namespace}/late-claim does not exist`));
    await apply(claim("late-claim"));
    await objects.waitForVmiPhase("vm-late", "Running", { timeoutMs: BOOT_MS });
    await objects.waitForVmStatus("vm-late", "Running", BOOT_MS);
  });

  test("kill -9 of the whole dev cluster: it comes back on its data dir, the VM ran on, its disk kept the marker", async () => {
    const before = requireStack();
    const id = domainId("vm-a");
    const cluster = devClusterPid(before.pid);
    assert.ok(cluster, "the dev cluster runs as start.mjs's child");
    process.kill(cluster, "SIGKILL");
    await before.exited;
    before.client.close();
    stack = await startKubevirtStack(workDir, { tag: "claims", timeoutMs: 300_000, again: before });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await objects.waitForVmStatus("vm-a", "Running", BOOT_MS);
    assert.equal(domainId("vm-a"), id, "the same QEMU ran on");
    assert.equal((await readClaim("disk-a")).status?.phase, "Bound");
    const console = await guestConsole("vm-a", undefined, true);
    try {
      assert.ok(await readMarker(console), "the marker is still on the disk");
    } finally {
      console.close();
    }
  });

  test("deleting a VM keeps a claim it does not own; deleting the claim deletes its volume and data", async () => {
    const bound = await readClaim("disk-a");
    const volumeName = bound.spec?.volumeName ?? "";
    const dir = (await readVolume(volumeName)).spec?.local?.path ?? "";
    await kubectl.ok(["delete", "vm", "vm-a", "-n", namespace, "--wait=true", "--timeout=90s"]);
    await pollUntil(
      "vm-a's launcher pod to go",
      async () => ((await objects.launcherPods("vm-a")).length === 0 ? true : undefined),
      {
        timeoutMs: 90_000,
      },
    );
    assert.equal((await readClaim("disk-a")).status?.phase, "Bound", "the claim stays");
    assert.ok(existsSync(join(dir, "disk.img")), "and so does its disk");
    await kubectl.ok(["delete", "pvc", "disk-a", "-n", namespace, "--wait=true", "--timeout=60s"]);
    await pollUntil(
      "the claim's volume and directory to go",
      async () => {
        const gone = await readVolume(volumeName).then(
          () => false,
          () => true,
        );
        return gone && !existsSync(dir) ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
  });
});
