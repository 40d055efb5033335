/**
 * VirtualMachineInstanceReplicaSets end to end on `npm start`'s stack with the real kubectl,
 * libvirt and QEMU (TCG): KubeVirt's examples/vmi-replicaset-cirros.yaml (api/testdata/, its image
 * `registry:5000/kubevirt/cirros-container-disk-demo:devel` is the dev registry's stand-in) with 3
 * replicas runs 3 VMIs; `kubectl scale` to 1 leaves 1 and back to 3 makes 3; `virtctl expose vmirs`
 * reaches all of them; kill -9 of virt-controller during a scale-up ends with exactly the requested
 * number. At most 3 guests at once. Runs as root. The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { parse, stringify } from "yaml";
import { type StoredVirtualMachineInstanceReplicaSet, vmirsKind } from "../../api/index.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import type { VirtualMachineInstance } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";

const NAME = "vmi-replicaset-cirros";
const RUN_MS = 180_000;

describe("VirtualMachineInstanceReplicaSets", { timeout: 900_000 }, () => {
  const namespace = `vmirs-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const readReplicaSet = (): Promise<StoredVirtualMachineInstanceReplicaSet> =>
    requireStack().client.resource(vmirsKind).get({ namespace, name: NAME });
  /** The replica set's VMIs that count (not final, not being deleted). */
  const activeVmis = async (): Promise<VirtualMachineInstance[]> => {
    const uid = (await readReplicaSet()).metadata?.uid;
    return (await objects.vmis()).filter(
      (vmi) =>
        vmi.metadata?.ownerReferences?.some((owner) => owner.controller && owner.uid === uid) &&
        !vmi.metadata?.deletionTimestamp &&
        !["Succeeded", "Failed"].includes(vmi.status?.phase ?? ""),
    );
  };
  /** Waits for `count` Running VMIs of the replica set, and for its status to say so. */
  const runningVmis = async (count: number): Promise<VirtualMachineInstance[]> => {
    let seen = "";
    const vmis = await pollUntil(
      `${count} Running VMIs of ${NAME}`,
      async () => {
        const active = await activeVmis();
        seen = active.map((vmi) => `${vmi.metadata?.name}:${vmi.status?.phase ?? "Pending"}`).join(" ");
        return active.length === count && active.every((vmi) => vmi.status?.phase === "Running")
          ? active
          : undefined;
      },
      { timeoutMs: RUN_MS, intervalMs: 500, lastSeen: () => seen },
    );
    await pollUntil(
      `${NAME}'s status to count ${count} ready`,
      async () => {
        const status = (await readReplicaSet()).status;
        return status?.replicas === count && status.readyReplicas === count ? true : undefined;
      },
      { timeoutMs: 60_000, lastSeen: () => JSON.stringify(seen) },
    );
    return vmis;
  };
  /** Every VMI of the run's namespace is gone but `count` (deleted ones take their guest's shutdown). */
  const onlyLeft = (count: number) =>
    pollUntil(
      `only ${count} VMIs left in ${namespace}`,
      async () => ((await objects.vmis()).length === count ? true : undefined),
      { timeoutMs: 120_000, intervalMs: 500 },
    );

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-vmirs-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "vmirs", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    // The replica set first: it would replace the VMIs the teardown deletes.
    if (stack?.running() && kubectl) {
      await kubectl.run(["delete", "vmirs", "--all", "-n", namespace, "--wait=false"], { timeoutMs: 20_000 });
    }
    await tearDownRun({ label: "replica-sets", namespace, workDir, stack, kubectl, domains });
  });

  test("KubeVirt's vmi-replicaset-cirros with 3 replicas: 3 Running VMIs, and kubectl get vmirs says 3 3 3", async () => {
    const manifest = parse(
      await readFile(join(requireStack().repoRoot, "api", "testdata", "vmirs-cirros.yaml"), "utf8"),
    ) as { spec: { replicas: number } };
    manifest.spec.replicas = 3;
    await kubectl.ok(["apply", "-n", namespace, "-f", "-"], { input: stringify(manifest) });
    const vmis = await runningVmis(3);
    for (const vmi of vmis) {
      assert.match(vmi.metadata?.name ?? "", new RegExp(`^${NAME}[a-z0-9]{5}$`));
      assert.equal(vmi.metadata?.labels?.["kubevirt.io/vmReplicaSet"], NAME);
    }
    const table = await kubectl.ok(["get", "vmirs", NAME, "-n", namespace]);
    assert.match(table, /NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    assert.match(table, new RegExp(`${NAME}\\s+3\\s+3\\s+3\\s`));
  });

  test("virtctl expose vmirs: the Service's endpoints are the 3 launcher pods", async () => {
    const exposed = await runVirtctl({ ...requireStack(), namespace }, [
      ...["expose", "vmirs", NAME, "--name", "rs-svc", "--port", "22"],
    ]);
    assert.equal(exposed.code, 0, `virtctl expose: ${exposed.stderr}`);
    const podIps = (await objects.launcherPods()).map((pod) => pod.status?.podIP).sort();
    assert.equal(podIps.length, 3);
    await pollUntil("rs-svc's endpoints to hold the 3 launcher pods", async () => {
      const endpoints = await kubectl.json<{ subsets?: { addresses?: { ip: string }[] }[] }>([
        ...["endpoints", "rs-svc", "-n", namespace],
      ]);
      const ips = (endpoints.subsets ?? []).flatMap((subset) => (subset.addresses ?? []).map((a) => a.ip));
      return JSON.stringify(ips.sort()) === JSON.stringify(podIps) ? true : undefined;
    });
  });

  test("kubectl scale --replicas=1 leaves 1 (one of the Running ones); --replicas=3 makes 3 again", async () => {
    const before = (await activeVmis()).map((vmi) => vmi.metadata?.uid);
    assert.match(await kubectl.ok(["scale", "vmirs", NAME, "--replicas=1", "-n", namespace]), /scaled/);
    const [survivor] = await runningVmis(1);
    assert.ok(before.includes(survivor?.metadata?.uid), "a VMI that ran before stays");
    await onlyLeft(1);
    await kubectl.ok(["scale", "vmirs", NAME, "--replicas=3", "-n", namespace]);
    const vmis = await runningVmis(3);
    assert.ok(
      vmis.some((vmi) => vmi.metadata?.uid === survivor?.metadata?.uid),
      "the survivor runs on",
    );
  });

  test("kill -9 of virt-controller during a scale-up: exactly the requested number", async () => {
    await kubectl.ok(["scale", "vmirs", NAME, "--replicas=1", "-n", namespace]);
    await runningVmis(1);
    await onlyLeft(1);
    const pids = componentPids(requireStack(), "virt-controller");
    assert.ok(pids.length >= 1, "virt-controller runs on the node");
    await kubectl.ok(["scale", "vmirs", NAME, "--replicas=3", "-n", namespace]);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    const madeBeforeKill = (await objects.vmis()).length;
    await pollUntil(
      "a new virt-controller process",
      () => {
        const now = componentPids(requireStack(), "virt-controller");
        return now.length >= 1 && now.every((pid) => !pids.includes(pid)) ? true : undefined;
      },
      { timeoutMs: 120_000 },
    );
    await runningVmis(3);
    // Long enough for the new leader to have looked at the replica set more than once.
    await sleep(10_000);
    const vmis = await objects.vmis();
    assert.equal(
      vmis.length,
      3,
      `exactly 3 VMIs (${madeBeforeKill} right after the kill): ${vmis.map((v) => v.metadata?.name).join(" ")}`,
    );
    assert.equal((await activeVmis()).length, 3);
  });
});
