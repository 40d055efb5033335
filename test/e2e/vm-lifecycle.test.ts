/**
 * kubevirt-ts end to end, as a user runs it: `npm start` (scripts/start.mjs: the dev cluster with
 * kubevirt-ts installed by virt-operator, every component a pod running with its own service
 * account under RBAC) in a process of its own, the machine's real kubectl,
 * and real libvirt and QEMU (TCG) booting the test guest. Runs as root. The tests run in order and
 * build on each other: one VM (vm-a) goes through its whole life, then ten VMs race a virt-controller
 * kill, then twenty VMs start in a burst. Guests are watched through our libvirt binding's console stream of `<namespace>_<name>`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { extractCidataFile, TEST_GUEST_BANNER, TEST_GUEST_PROMPT } from "../guest/guest-console.js";
import type { Pod, VirtualMachine } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack, stopKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids, nodeLeftovers } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { createVmBurst, setCpuAllocationRatio, waitForBurst } from "./testing/vm-burst.js";
import { VmBurstRecorder } from "./testing/vm-burst-recorder.js";
import { asDocuments, tinyVm, vmWithDiskWithoutVolume } from "./testing/vm-manifests.js";

/** A TCG boot of the test guest takes ~5 s alone; allow for a busy machine. */
const BOOT_MS = 90_000;
const MANY = 10;
const BURST = 20;
const BURST_INTERVAL_MS = 100;
const BURST_RATIO = 20;

describe("kubevirt-ts end to end: VMs with kubectl on npm start", { timeout: 600_000 }, () => {
  const namespace = `e2e-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  const userData = `#cloud-config\n# run ${namespace}\nruncmd:\n  - echo "hello from ${namespace}"\n`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  /** vm-a's console, attached to its current domain. */
  let guest: GuestConsole | undefined;

  const vmA = "vm-a";
  const domainA = () => `${namespace}_${vmA}`;
  const inNamespace = (...args: string[]) => [...args, "-n", namespace];
  const patchRunStrategy = (name: string, strategy: string) => {
    const patch = JSON.stringify({ spec: { runStrategy: strategy } });
    return kubectl.ok(inNamespace("patch", "vm", name, "--type=merge", "-p", patch));
  };
  /** `kubectl get vm NAME`'s row, once it shows `status` and `ready` (columns NAME AGE STATUS READY). */
  const vmRowShows = (name: string, status: string, ready: string) =>
    pollUntil(`kubectl get vm ${name} to show ${status} ${ready}`, async () => {
      const table = await kubectl.ok(inNamespace("get", "vm", name));
      return new RegExp(`^${name}\\s+\\S+\\s+${status}\\s+${ready}\\s*$`, "m").test(table)
        ? table
        : undefined;
    });
  /** Attaches to vm-a's next domain (not `notId`) while it boots. */
  const attachToVmA = async (notId?: number) => {
    guest?.close();
    guest = await requireDomains().attachConsole(domainA(), {
      timeoutMs: BOOT_MS,
      ...(notId === undefined ? {} : { notId }),
    });
    return guest;
  };
  const requireDomains = () => {
    if (!domains) throw new Error("libvirt is not connected");
    return domains;
  };
  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  /** No VMI, launcher pod or domain of the VM. */
  const vmIsGone = async (name: string) =>
    !(await objects.vmi(name)) &&
    (await objects.launcherPods(name)).length === 0 &&
    !requireDomains().exists(`${namespace}_${name}`);

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-e2e-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "e2e" });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    guest?.close();
    await tearDownRun({ label: "vm-lifecycle", namespace, workDir, stack, kubectl, domains });
  });

  test("a VM whose disk names no volume is refused by virt-api's webhook, with the field path; nothing is created", async () => {
    const name = "vm-invalid";
    const manifest = vmWithDiskWithoutVolume(requireStack().repoRoot, {
      name,
      namespace,
      diskName: "nosuchvolume",
    });
    const refused = await kubectl.run(inNamespace("apply", "-f", "-"), { input: JSON.stringify(manifest) });
    assert.equal(refused.code, 1, "kubectl apply fails");
    // As KubeVirt's: `The request is invalid: <field>: <field> 'nosuchvolume' not found.`
    assert.match(
      refused.stderr,
      /spec\.template\.spec\.domain\.devices\.disks\[\d+\]\.name.*'nosuchvolume' not found/,
    );
    assert.equal(await objects.vm(name), undefined, "no VM");
    assert.equal(await objects.vmi(name), undefined, "no VMI");
    assert.deepEqual(await objects.launcherPods(name), [], "no launcher pod");
  });

  test("apply a VM: its VMI runs on the node, the guest's banner is on its console, kubectl shows Running and Ready", async (t) => {
    const started = performance.now();
    await kubectl.apply(JSON.stringify(tinyVm(requireStack().repoRoot, { name: vmA, namespace, userData })));
    const console = await attachToVmA();
    const vmi = await objects.waitForVmiPhase(vmA, "Running", { timeoutMs: BOOT_MS });
    const runningAfter = performance.now() - started;
    assert.equal(vmi.status?.nodeName, requireStack().nodeName);
    await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    t.diagnostic(
      `apply → VMI Running ${Math.round(runningAfter)} ms, → banner ${Math.round(performance.now() - started)} ms`,
    );
    await vmRowShows(vmA, "Running", "True");
    const pods = await objects.launcherPods(vmA);
    assert.equal(pods.length, 1, "one launcher pod");
    assert.equal(pods[0]?.status?.phase, "Running");
  });

  test("the cloud-init user-data reaches the guest", async () => {
    const console = guest;
    assert.ok(console, "vm-a's console is attached");
    await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS); // the guest echoes its cidata before
    assert.equal(extractCidataFile(console.transcript.text, "user-data"), userData);
  });

  test("kill -9 of virt-handler leaves the VM running; the restarted handler adopts it", async () => {
    const node = requireStack();
    const libvirt = requireDomains();
    const qemuBefore = libvirt.qemuPid(domainA());
    const idBefore = libvirt.domainId(domainA());
    const vmiBefore = await objects.vmi(vmA);
    assert.ok(qemuBefore && idBefore, "vm-a's QEMU runs");
    const handlers = componentPids(node, "virt-handler");
    assert.equal(handlers.length, 1, `one virt-handler process of the node (${handlers.join(", ")})`);
    const [handlerPid] = handlers as [number];
    const restartsBefore = await handlerRestartCount();
    process.kill(handlerPid, "SIGKILL");
    await pollUntil("the node agent to restart virt-handler", () => {
      const pids = componentPids(node, "virt-handler");
      return pids.length === 1 && pids[0] !== handlerPid ? pids[0] : undefined;
    });
    await waitForStartupSweep(restartsBefore);
    assert.equal(libvirt.qemuPid(domainA()), qemuBefore, "the same QEMU process runs the VM");
    assert.equal(libvirt.domainId(domainA()), idBefore, "the domain was never restarted");
    assert.deepEqual(libvirt.runningNames(), [domainA()], "no second domain");
    const vmiAfter = await objects.vmi(vmA);
    assert.equal(vmiAfter?.metadata?.uid, vmiBefore?.metadata?.uid, "the same VMI");
    assert.equal(vmiAfter?.status?.phase, "Running");
    assert.equal((await objects.launcherPods(vmA)).length, 1);
  });

  async function handlerPod(): Promise<Pod | undefined> {
    const list = await kubectl.json<{ items: Pod[] }>([
      "pods",
      "-n",
      "kubevirt",
      "-l",
      "kubevirt.io=virt-handler",
    ]);
    return list.items[0];
  }

  async function handlerRestartCount(): Promise<number> {
    return (await handlerPod())?.status?.containerStatuses?.[0]?.restartCount ?? 0;
  }

  /** The restarted handler's log (through kubectl logs) says it has looked at the node's domains. */
  async function waitForStartupSweep(restartsBefore: number): Promise<void> {
    const pod = await pollUntil("the virt-handler pod to run its restarted container", async () => {
      const found = await handlerPod();
      const status = found?.status?.containerStatuses?.[0];
      return status && status.restartCount > restartsBefore && status.state?.running ? found : undefined;
    });
    const name = pod.metadata?.name ?? "";
    const sweep = await pollUntil("the restarted virt-handler's startup sweep", async () => {
      const logs = await kubectl.ok(["logs", "-n", "kubevirt", name]);
      return logs.split("\n").find((line) => line.includes('"startup sweep done"'));
    });
    assert.match(sweep, /"domains":1\b/, `it found vm-a's domain: ${sweep}`);
  }

  test("runStrategy Halted: VMI, launcher pod and domain go, the VM is Stopped; Always again: Running", async () => {
    const vmiBefore = await objects.vmi(vmA);
    const uid = vmiBefore?.metadata?.uid ?? "";
    const idBefore = requireDomains().domainId(domainA());
    guest?.close();
    guest = undefined;
    await patchRunStrategy(vmA, "Halted");
    await pollUntil("vm-a's VMI, pod and domain to go", async () =>
      (await vmIsGone(vmA)) ? true : undefined,
    );
    await objects.waitForVmStatus(vmA, "Stopped");
    await vmRowShows(vmA, "Stopped", "False");
    assert.equal(
      existsSync(join(requireStack().dataDir, "virt-handler", uid)),
      false,
      "the VM's files are gone",
    );

    await patchRunStrategy(vmA, "Always");
    const console = await attachToVmA(idBefore ?? undefined);
    const vmi = await objects.waitForVmiPhase(vmA, "Running", { notUid: uid, timeoutMs: BOOT_MS });
    assert.notEqual(vmi.metadata?.uid, uid, "a new VMI");
    await vmRowShows(vmA, "Running", "True");
    await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
  });

  /** Powers the guest off from its own shell, as a user logged in to it would. */
  async function powerOffFromInside(console: GuestConsole): Promise<void> {
    const atBanner = await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    await console.transcript.waitFor(TEST_GUEST_PROMPT, 10_000, atBanner);
    await console.type("poweroff -f");
  }

  test("the guest powers itself off: restarted under Always", async () => {
    const console = guest;
    assert.ok(console, "vm-a's console is attached");
    const uid = (await objects.vmi(vmA))?.metadata?.uid;
    const idBefore = requireDomains().domainId(domainA());
    await powerOffFromInside(console);
    const next = await attachToVmA(idBefore ?? undefined);
    const vmi = await objects.waitForVmiPhase(vmA, "Running", { notUid: uid, timeoutMs: BOOT_MS });
    assert.notEqual(vmi.metadata?.uid, uid, "a new VMI runs the VM");
    await next.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    await vmRowShows(vmA, "Running", "True");
  });

  test("the guest powers itself off: Stopped under RerunOnFailure", async () => {
    const console = guest;
    assert.ok(console, "vm-a's console is attached");
    const uid = (await objects.vmi(vmA))?.metadata?.uid;
    await patchRunStrategy(vmA, "RerunOnFailure");
    await sleep(500);
    assert.equal(
      (await objects.vmi(vmA))?.metadata?.uid,
      uid,
      "switching the strategy leaves the running VMI alone",
    );
    await powerOffFromInside(console);
    await pollUntil("vm-a's VMI, pod and domain to go", async () =>
      (await vmIsGone(vmA)) ? true : undefined,
    );
    await objects.waitForVmStatus(vmA, "Stopped");
    await sleep(2000);
    assert.equal(await objects.vmi(vmA), undefined, "not restarted");
    await vmRowShows(vmA, "Stopped", "False");
  });

  test("delete the VM: no pod, VMI, domain or VM file is left", async () => {
    await patchRunStrategy(vmA, "Always");
    const console = await attachToVmA();
    const vmi = await objects.waitForVmiPhase(vmA, "Running", { timeoutMs: BOOT_MS });
    const vmDir = join(requireStack().dataDir, "virt-handler", vmi.metadata?.uid ?? "");
    assert.ok(existsSync(vmDir), `the VM's files are in ${vmDir}`);
    await console.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    await kubectl.ok(inNamespace("delete", "vm", vmA));
    await pollUntil("vm-a's VMI, pod, domain and files to go", async () =>
      (await vmIsGone(vmA)) && !existsSync(vmDir) ? true : undefined,
    );
    assert.equal(await objects.vm(vmA), undefined, "the VM is gone");
    const get = await kubectl.run(inNamespace("get", "vm", vmA));
    assert.match(get.stderr, /NotFound/);
  });

  test(`kill -9 of both virt-controllers while ${MANY} VMs are being created: exactly ${MANY} VMIs, pods and domains`, async (t) => {
    const node = requireStack();
    const names = Array.from({ length: MANY }, (_, i) => `vm-many-${i}`);
    // 96Mi: the least the test guest boots with; grace 0: deletion destroys at once.
    const vms = names.map((name) =>
      tinyVm(node.repoRoot, { name, namespace, memory: "96Mi", terminationGracePeriodSeconds: 0 }),
    );
    // Both replicas (the leader and the one waiting for its Lease) die at once.
    const controllers = componentPids(node, "virt-controller");
    assert.equal(controllers.length, 2, "two virt-controller processes");
    let applyFailure = "";
    const applying = kubectl
      .run(inNamespace("apply", "-f", "-"), { input: asDocuments(vms) })
      .then((result) => {
        if (result.code !== 0) applyFailure = result.stderr;
        return result;
      });
    const atKill = await pollUntil(
      "virt-controller to create the first VMI",
      async () => {
        if (applyFailure) throw new Error(`kubectl apply failed: ${applyFailure}`);
        const count = (await objects.vmis()).length;
        return count > 0 ? count : undefined;
      },
      { intervalMs: 10 },
    );
    for (const pid of controllers) process.kill(pid, "SIGKILL");
    assert.equal((await applying).code, 0, applyFailure);
    t.diagnostic(`virt-controller killed with ${atKill} of ${MANY} VMIs created`);
    await pollUntil("the node agent to restart both virt-controllers", () => {
      const pids = componentPids(node, "virt-controller");
      return pids.length === 2 && pids.every((pid) => !controllers.includes(pid)) ? true : undefined;
    });
    await waitForManyRunning(names);
    await sleep(2000); // duplicates, if any were made, would show by now
    await assertExactlyOnePerVm(names);
    await deleteAllVms(names, 60_000);
  });

  /** Deletes the VMs and waits until no VMI, launcher pod or domain of the run is left. */
  async function deleteAllVms(names: string[], timeoutMs: number): Promise<void> {
    await kubectl.ok(inNamespace("delete", "vm", ...names, "--wait=false"));
    await pollUntil(
      `every VMI, pod and domain of the ${names.length} VMs to go`,
      async () =>
        (await objects.vmis()).length === 0 &&
        (await objects.launcherPods()).length === 0 &&
        requireDomains().names().length === 0
          ? true
          : undefined,
      { timeoutMs },
    );
  }

  async function waitForManyRunning(names: string[]): Promise<void> {
    let seen = "";
    await pollUntil(
      `${names.length} VMIs Running`,
      async () => {
        const running = (await objects.vmis()).filter((vmi) => vmi.status?.phase === "Running");
        seen = `${running.length} Running VMIs, domains ${requireDomains().runningNames().length}`;
        return running.length === names.length ? true : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500, lastSeen: () => seen },
    );
  }

  async function assertExactlyOnePerVm(names: string[]): Promise<void> {
    const vmis = await objects.vmis();
    assert.deepEqual(vmis.map((vmi) => vmi.metadata?.name).sort(), [...names].sort(), "one VMI per VM");
    const pods = await objects.launcherPods();
    assert.equal(pods.length, names.length, `${names.length} launcher pods`);
    const podOwners = pods.map((pod) => pod.metadata?.labels?.["kubevirt.io/created-by"]).sort();
    assert.deepEqual(podOwners, vmis.map((vmi) => vmi.metadata?.uid).sort(), "one launcher pod per VMI");
    assert.deepEqual(
      requireDomains().runningNames(),
      names.map((name) => `${namespace}_${name}`).sort(),
      "one running domain per VM",
    );
  }

  test(`a burst of ${BURST} VMs ${BURST_INTERVAL_MS} ms apart all run: cpuAllocationRatio ${BURST_RATIO} fits them on the node`, async (t) => {
    // The density benchmark's burst (bench/vm-density.ts), as a liveness check: at KubeVirt's
    // default ratio (100m a vCPU) twenty launcher pods and the components do not fit 2 CPUs.
    const node = requireStack();
    await setCpuAllocationRatio(node.client, BURST_RATIO);
    const names = Array.from({ length: BURST }, (_, i) => `vm-burst-${String(i).padStart(2, "0")}`);
    const vms = names.map((name) =>
      tinyVm(node.repoRoot, { name, namespace, memory: "96Mi", terminationGracePeriodSeconds: 0 }),
    );
    const recorder = await VmBurstRecorder.start(node.client, namespace);
    try {
      const started = performance.now();
      await createVmBurst(node.client, vms, BURST_INTERVAL_MS);
      await waitForBurst(recorder, BURST, 240_000);
      t.diagnostic(
        `${BURST} VMIs Running ${Math.round(performance.now() - started)} ms after the first create`,
      );
    } finally {
      await recorder.stop();
    }
    const pods = await objects.launcherPods();
    assert.equal(pods.length, BURST, "one launcher pod per VM");
    for (const pod of pods) {
      assert.equal(pod.spec?.containers[0]?.resources?.requests?.cpu, "50m", "1 vCPU ÷ 20");
    }
    await deleteAllVms(names, 120_000);
  });

  test("stopping npm start (SIGTERM) leaves no process, pod network or bridge of the node", async () => {
    const node = requireStack();
    const vms = await kubectl.json<{ items: VirtualMachine[] }>(inNamespace("vm"));
    assert.deepEqual(vms.items, [], "every VM of the run is gone");
    const exit = await stopKubevirtStack(node);
    assert.deepEqual(exit, { code: 0, signal: null }, `start.mjs ended cleanly:\n${node.tail()}`);
    assert.deepEqual(nodeLeftovers(node), []);
    assert.deepEqual(requireDomains().names(), []);
  });
});
