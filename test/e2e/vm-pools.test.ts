/**
 * VirtualMachinePools end to end on `npm start`'s stack with the real kubectl, libvirt and QEMU
 * (TCG): a pool written as KubeVirt's examples/vm-pool-cirros.yaml writes it (our
 * examples/vm-pool-cirros-shaped.yaml; its image `registry:5000/kubevirt/cirros-container-disk-demo:devel`
 * is mirrored to the dev registry, where start.mjs pushes the stand-in) applies unchanged and makes
 * vm-pool-cirros-0, -1 and -2, which run; `kubectl scale vmpool` to 1 and back to 3 brings back
 * the same names; deleting the pool deletes its VMs and their guests. At most three guests at
 * once. Runs as root. The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { vmKind, vmPoolKind } from "../../api/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { guestShell } from "./testing/guest-shell.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";

/** Three TCG guests booting side by side on a small machine. */
const BOOT_MS = 300_000;
const POOL = "vm-pool-cirros";
const POOL_SELECTOR = `kubevirt.io/vmpool=${POOL}`;
const ALL_NAMES = [0, 1, 2].map((index) => `${POOL}-${index}`);

describe("VirtualMachinePools", { timeout: 1_200_000 }, () => {
  const namespace = `pools-${process.pid}-${Date.now().toString(36).slice(-4)}`;
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
  /** The pool's VMs, those being deleted too. */
  const poolVmNames = async () =>
    (await requireStack().client.resource(vmKind).list({ namespace, labelSelector: POOL_SELECTOR })).items
      .map((vm) => vm.metadata?.name ?? "")
      .sort();
  const waitForVmNames = (expected: readonly string[]) => {
    let last: string[] = [];
    return pollUntil(
      `the pool's VMs to be ${expected.join(", ")}`,
      async () => {
        last = await poolVmNames();
        return JSON.stringify(last) === JSON.stringify([...expected].sort()) ? true : undefined;
      },
      { timeoutMs: BOOT_MS, lastSeen: () => last.join(", ") },
    );
  };
  const waitForReadyReplicas = (count: number) => {
    let last: unknown;
    return pollUntil(
      `the pool to have ${count} ready replicas`,
      async () => {
        const pool = await requireStack().client.resource(vmPoolKind).get({ namespace, name: POOL });
        last = pool.status;
        return pool.status?.readyReplicas === count && pool.status.replicas === count ? pool : undefined;
      },
      { timeoutMs: BOOT_MS, lastSeen: () => JSON.stringify(last) },
    );
  };
  const waitForDomains = (count: number) =>
    pollUntil(
      `${count} guest domains`,
      () => (requireDomains().names().length === count ? true : undefined),
      { timeoutMs: BOOT_MS, lastSeen: () => requireDomains().names().join(", ") },
    );

  /** The guest of a pool VM answers at its serial console's shell (retried while it boots). */
  const assertGuestAnswers = async (vmName: string) => {
    const console = await requireDomains().attachConsole(requireDomains().domainName(vmName), {
      timeoutMs: BOOT_MS,
    });
    try {
      await pollUntil(
        `the guest of ${vmName} to answer at its shell`,
        async () => {
          const output = await guestShell(console, "echo pool-$((20+22))", 10_000).catch(() => undefined);
          return output?.includes("pool-42") ? true : undefined;
        },
        { timeoutMs: BOOT_MS },
      );
    } finally {
      console.close();
    }
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-pools-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "pools", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    // The pool first: it would make again the VMs the teardown deletes.
    if (stack?.running() && kubectl) {
      await kubectl.run(["delete", "vmpool", "--all", "-n", namespace, "--wait=false"], {
        timeoutMs: 20_000,
      });
    }
    await tearDownRun({ label: "pools", namespace, workDir, stack, kubectl, domains });
  });

  test("vm-pool-cirros applies unchanged and makes vm-pool-cirros-0, -1 and -2, which run", async () => {
    const example = join(requireStack().repoRoot, "examples", "vm-pool-cirros-shaped.yaml");
    await kubectl.ok(["apply", "-n", namespace, "-f", example]);
    await waitForVmNames(ALL_NAMES);
    for (const name of ALL_NAMES) await objects.waitForVmiPhase(name, "Running", { timeoutMs: BOOT_MS });
    await waitForReadyReplicas(3);
    await waitForDomains(3);
    await assertGuestAnswers(`${POOL}-0`);
    const table = await kubectl.ok(["get", "vmpool", POOL, "-n", namespace]);
    assert.match(table, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/m);
    assert.match(table, new RegExp(`^${POOL}\\s+3\\s+3\\s+3\\s+`, "m"));
  });

  test("kubectl scale vmpool to 1 and back to 3 brings back the same names", async () => {
    await kubectl.ok(["scale", "vmpool", POOL, "-n", namespace, "--replicas=1"]);
    const [left] = await pollUntil(
      "one VM left in the pool",
      async () => {
        const names = await poolVmNames();
        return names.length === 1 ? names : undefined;
      },
      { timeoutMs: BOOT_MS },
    );
    assert.ok(left !== undefined && ALL_NAMES.includes(left), `${left} is one of the pool's names`);
    await waitForDomains(1);
    // The deleted VMs' VMIs go after them (garbage collection): a new VM of the same name waits for that.
    await pollUntil("the deleted VMs' VMIs to go", async () =>
      (await objects.vmis()).length === 1 ? true : undefined,
    );
    const leftVm = await objects.vm(left);

    await kubectl.ok(["scale", "vmpool", POOL, "-n", namespace, "--replicas=3"]);
    await waitForVmNames(ALL_NAMES);
    for (const name of ALL_NAMES) await objects.waitForVmiPhase(name, "Running", { timeoutMs: BOOT_MS });
    await waitForReadyReplicas(3);
    await assertGuestAnswers(ALL_NAMES.find((name) => name !== left) ?? "");
    assert.equal(
      (await objects.vm(left))?.metadata?.uid,
      leftVm?.metadata?.uid,
      "the VM that stayed is the same VM",
    );
  });

  test("deleting the pool deletes its VMs and their guests", async () => {
    await kubectl.ok(["delete", "vmpool", POOL, "-n", namespace, "--wait=false"]);
    await waitForVmNames([]);
    await waitForDomains(0);
    const pools = await requireStack().client.resource(vmPoolKind).list({ namespace });
    assert.equal(pools.items.length, 0);
  });
});
