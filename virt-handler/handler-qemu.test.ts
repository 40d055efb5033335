// End to end on the node's real libvirt (qemu:///system, TCG): virt-handler as its own process boots
// the test guest for a VMI scheduled to its node, survives a kill -9 without touching the VM, and
// removes everything when the VMI is deleted.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Connection, type ConsoleStream, DomainState, DomainXMLFlags } from "../libvirt/index.js";
import { ensureTestGuest, type TestGuest } from "../test/guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { ConsoleTranscript } from "../test/libvirt/testing/console-transcript.js";
import { vmiKind } from "./kinds.js";
import {
  countVmiWrites,
  createScheduledVmi,
  dropControllerFinalizer,
  eventually,
  type HandlerCluster,
  setUseEmulation,
  startHandlerCluster,
} from "./testing/handler-cluster.js";
import { type HandlerProcess, spawnHandler } from "./testing/handler-process.js";
import { HANDLER_FINALIZER } from "./vmi/vmi-decision.js";

const NAME = `tiny-${process.pid}`;
const DOMAIN = `default_${NAME}`;
const BOOT_TIMEOUT_MS = 60_000;

function qemuPid(): number | undefined {
  try {
    return Number(readFileSync(`/run/libvirt/qemu/${DOMAIN}.pid`, "utf8").trim());
  } catch {
    return undefined;
  }
}

describe("virt-handler on qemu:///system with the test guest", { timeout: 180_000 }, () => {
  let cluster: HandlerCluster;
  let guest: TestGuest;
  let libvirt: Connection;
  let handler: HandlerProcess;
  let console: ConsoleStream | undefined;
  let stateDir = "";
  let uid = "";

  const logs: string[] = [];
  const startHandler = (): HandlerProcess =>
    spawnHandler([
      ...["--node-name", cluster.nodeName, "--libvirt-uri", "qemu:///system"],
      ...["--kubeconfig", cluster.api.kubeconfigPath, "--state-dir", stateDir],
      ...["--image-store", guest.storeDir, "--address", "127.0.0.1"],
      ...["--health-port", "0", "--metrics-port", "0"],
    ]);
  const getVmi = () => cluster.client.resource(vmiKind).get({ namespace: "default", name: NAME });

  before(async () => {
    guest = await ensureTestGuest();
    cluster = await startHandlerCluster();
    stateDir = join(cluster.workDir, "state");
    await setUseEmulation(cluster, true);
    libvirt = await Connection.open("qemu:///system");
    handler = startHandler();
    await handler.waitForLog("startup sweep done", 30_000);
  });

  after(async () => {
    logs.push(handler.output());
    if (process.env.HANDLER_LOG) await writeFile(process.env.HANDLER_LOG, logs.join(""));
    console?.destroy();
    handler.child.kill("SIGTERM");
    await handler.exited;
    const leftover = libvirt.findDomainByName(DOMAIN);
    if (leftover !== null) {
      if (leftover.isActive()) await leftover.destroy();
      await leftover.undefine();
      leftover.free();
    }
    await libvirt.close();
    await cluster.close();
    // libvirt keeps a domain's QEMU log after undefine; a test leaves nothing behind.
    rmSync(`/var/log/libvirt/qemu/${DOMAIN}.log`, { force: true });
  });

  test("a VMI scheduled to the node boots: Running, and the guest's banner on its console", async (t) => {
    const createdAt = performance.now();
    const { vmi } = await createScheduledVmi(cluster, {
      name: NAME,
      image: guest.image,
      domain: {
        resources: { requests: { memory: "128Mi" } },
        firmware: {
          kernelBoot: {
            container: { image: guest.image, kernelPath: "/boot/vmlinuz", initrdPath: "/boot/initramfs.gz" },
            kernelArgs: guest.diskKernelArgs,
          },
        },
        devices: {
          disks: [{ name: "containerdisk", disk: { bus: "virtio" } }],
          // No NIC: no launcher process runs in these tests, so there is no pod network to join.
          interfaces: [],
          autoattachPodInterface: false,
        },
      },
      volumes: [{ name: "containerdisk", containerDisk: { image: guest.image } }],
    });
    uid = vmi.metadata?.uid ?? "";
    let runningAfter = 0;
    const runningSoon = eventually("Running", async () => {
      const current = await getVmi();
      runningAfter = performance.now() - createdAt;
      return current.status?.phase === "Running" ? current : undefined;
    });
    // Attach to the console as soon as QEMU runs: the banner comes seconds later (TCG boot).
    const domain = await eventually(
      "the domain to run",
      () => {
        const found = libvirt.findDomainByName(DOMAIN);
        if (found?.state().state === DomainState.Running) return found;
        found?.free();
        return undefined;
      },
      BOOT_TIMEOUT_MS,
    );
    // QEMU runs before libvirt has given the serial port its pty: retry until it has.
    console = await eventually("the console to open", () => domain.openConsole({ force: true }), 10_000);
    const transcript = new ConsoleTranscript(console);
    const running = await runningSoon;
    assert.ok(running.metadata?.finalizers?.includes(HANDLER_FINALIZER));
    await transcript.waitFor(TEST_GUEST_BANNER, BOOT_TIMEOUT_MS);
    const bannerAfter = performance.now() - createdAt;
    t.diagnostic(`created → Running ${Math.round(runningAfter)} ms, → banner ${Math.round(bannerAfter)} ms`);
    assert.ok(existsSync(join(stateDir, uid)), "the VM's files are in its directory");
    // Started with a boost (cpu-weight.ts), running with its launcher pod's weight: this pod asks
    // for no CPU, and the kubelet's weight for that is 2; live and in the persistent definition.
    const shares = (xml: string) => /<cputune>\s*<shares>(\d+)<\/shares>/.exec(xml)?.[1];
    assert.equal(shares(domain.xml()), "2", "the live weight");
    assert.equal(shares(domain.xml(DomainXMLFlags.Inactive)), "2", "the persistent weight");
    // The guest's agent connects with the banner: once the handler reported it, the VMI is complete
    // (the restarted handler below must find nothing to write).
    await eventually(
      "the guest agent's report",
      async () => ((await getVmi()).status?.guestOSInfo?.id ? true : undefined),
      30_000,
    );
    domain.free();
  });

  test("kill -9 of virt-handler leaves the VM running; the restarted handler adopts it", async () => {
    const pidBefore = qemuPid();
    assert.ok(pidBefore, "QEMU's pid file exists");
    handler.child.kill("SIGKILL");
    await handler.exited;
    logs.push(handler.output());
    const domain = libvirt.findDomainByName(DOMAIN);
    assert.ok(domain);
    assert.equal(domain.state().state, DomainState.Running, "the VM outlives its handler");
    const writes = await countVmiWrites(cluster, "default", NAME);
    handler = startHandler();
    await handler.waitForLog("startup sweep done", 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    writes.stop();
    assert.equal(qemuPid(), pidBefore, "the same QEMU process runs the VM");
    assert.equal(domain.state().state, DomainState.Running);
    assert.equal((await getVmi()).status?.phase, "Running");
    assert.equal(writes.writes().length, 0, "adoption writes nothing to a VMI that is already right");
    domain.free();
  });

  test("deleting the VMI shuts the guest down and removes domain, files and finalizer", async () => {
    await cluster.client.resource(vmiKind).delete({ namespace: "default", name: NAME });
    const stopped = await eventually(
      "the handler's finalizer to go",
      async () => {
        const current = await getVmi();
        return current.metadata?.finalizers?.includes(HANDLER_FINALIZER) ? undefined : current;
      },
      30_000,
    );
    assert.equal(stopped.status?.phase, "Succeeded");
    assert.equal(libvirt.findDomainByName(DOMAIN), null, "the domain is gone");
    assert.equal(existsSync(join(stateDir, uid)), false, "the VM's files are gone");
    await dropControllerFinalizer(cluster, stopped);
  });
});
