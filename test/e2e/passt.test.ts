/**
 * The passt binding end to end on `npm start`'s stack with the real kubectl, libvirt, QEMU (TCG) and
 * passt: admission wants the PasstBinding gate (and a registered plugin for `binding: {name: passt}`);
 * then a VM is reached at its launcher pod's IP on a listed port, not on an unlisted one, its guest
 * took the pod's IP from passt's DHCP, its traffic leaves from the pod's IP, and its passt runs in
 * the launcher pod's network namespace. Runs as root (pod network namespaces, qemu:///system).
 * The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { mkdtemp, stat } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PASST_SOCKET_NAME } from "../../virt-handler/domain/socket-paths.js";
import { findLauncherNetns } from "../../virt-handler/network/launcher-process.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { guestShell } from "./testing/guest-shell.js";
import { httpGet } from "./testing/http-get.js";
import type { Pod } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 90_000;

/** The pids whose command line names `needle` (the passt of a VM names its socket). */
async function processesNaming(needle: string): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.startsWith("passt") && cmdline.includes(needle)) pids.push(Number(entry));
  }
  return pids;
}

describe("VMs on the pod network through passt", { timeout: 600_000 }, () => {
  const namespace = `passt-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  let guest: GuestConsole | undefined;
  let webIP = "";

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const launcherPod = async (vm: string): Promise<Pod> => {
    const [pod] = await objects.launcherPods(vm);
    assert.ok(pod, `${vm} has a launcher pod`);
    return pod;
  };
  const passtVm = (name: string, binding: object, ports?: { port: number; protocol?: string }[]) => {
    const vm = tinyVm(requireStack().repoRoot, { name, namespace });
    const iface = vm.spec.template.spec.domain.devices.interfaces?.[0] as Record<string, unknown> | undefined;
    assert.ok(iface, "examples/vm-tiny.yaml has an interface");
    delete iface.masquerade;
    Object.assign(iface, binding);
    if (ports) iface.ports = ports;
    return JSON.stringify(vm);
  };
  const patchKubeVirt = (configuration: object) =>
    kubectl.ok([
      ...["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge", "-p"],
      JSON.stringify({ spec: { configuration } }),
    ]);

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-passt-"));
    domains = await RunDomains.open(namespace);
    // The machine may be busy with another stack: more time to come up than the default.
    stack = await startKubevirtStack(workDir, { tag: "passt", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    guest?.close();
    await tearDownRun({ label: "passt", namespace, workDir, stack, kubectl, domains });
  });

  test("admission: passtBinding needs its feature gate, the passt plugin its registration", async () => {
    const gated = await kubectl.run(["apply", "-f", "-"], {
      input: passtVm("web", { passtBinding: {} }, [{ port: 80 }]),
    });
    assert.notEqual(gated.code, 0);
    assert.match(gated.stderr, /PasstBinding feature gate is not enabled/);
    const plugin = await kubectl.run(["apply", "-f", "-"], {
      input: passtVm("plugin", { binding: { name: "passt" } }, [{ port: 80 }]),
    });
    assert.notEqual(plugin.code, 0);
    assert.match(plugin.stderr, /binding plugin passt, which is not registered/);
    await patchKubeVirt({
      developerConfiguration: { featureGates: ["PasstBinding"] },
      network: { binding: { passt: { networkAttachmentDefinition: "default/netbindingpasst" } } },
    });
  });

  test("a passtBinding VM: its guest holds the pod's IP (passt's DHCP), HTTP to the pod IP reaches it", async () => {
    // The webhook reads the CR from its informer: the patch may take a moment to be seen.
    await pollUntil("admission to accept passtBinding", async () =>
      (
        await kubectl.run(["apply", "-f", "-"], {
          input: passtVm("web", { passtBinding: {} }, [{ port: 80 }]),
        })
      ).code === 0
        ? true
        : undefined,
    );
    guest = await domains?.attachConsole(`${namespace}_web`, { timeoutMs: BOOT_MS });
    await guest?.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    await objects.waitForVmiPhase("web", "Running", { timeoutMs: BOOT_MS });
    const pod = await launcherPod("web");
    webIP = pod.status?.podIP ?? "";
    assert.match(webIP, /^\d+\.\d+\.\d+\.\d+$/, "the launcher pod has an IP");
    await pollUntil("the guest to take the pod's address from passt", async () =>
      (await guestShell(guest, "ip -4 addr show dev eth0")).includes(`inet ${webIP}/`) ? true : undefined,
    );
    const answer = await pollUntil(
      "the guest's HTTP server at the pod IP",
      async () => (await httpGet(webIP, 80)).body,
    );
    assert.equal(answer.trim(), "web", "the guest answers with its hostname");
    const reported = await pollUntil("the VMI's interface to carry the pod's IP", async () => {
      const current = await objects.vmi("web");
      return current?.status?.interfaces?.[0]?.ipAddress ? current.status.interfaces[0] : undefined;
    });
    assert.equal(reported.ipAddress, webIP);
    assert.equal(reported.name, "default");
    assert.equal(reported.podInterfaceName, "eth0");
  });

  test("passt runs in the launcher pod's network namespace, not the node's", async () => {
    const vmi = await objects.vmi("web");
    const pids = await processesNaming(`${vmi?.metadata?.uid ?? "?"}/${PASST_SOCKET_NAME}`);
    assert.equal(pids.length, 1, `one passt for the VM: ${pids.join(", ")}`);
    const pod = await launcherPod("web");
    const launcher = await findLauncherNetns(pod.metadata?.uid ?? "");
    assert.ok(launcher, "the launcher's namespace is found");
    assert.equal((await stat(`/proc/${pids[0]}/ns/net`)).ino, (await stat(launcher.path)).ino);
    assert.notEqual((await stat(`/proc/${pids[0]}/ns/net`)).ino, (await stat("/proc/self/ns/net")).ino);
  });

  test("an unlisted port does not reach the guest, though the guest listens on it", async () => {
    await guestShell(guest, "httpd -p 8080 -h /run/www");
    assert.equal((await httpGet(webIP, 8080)).error, "ECONNREFUSED");
    assert.equal((await httpGet(webIP, 80)).body?.trim(), "web");
  });

  test("the guest's outbound traffic leaves from the pod's IP; it resolves Services by the pod's DNS", async () => {
    // A listener on the node's address on the pod network: the pod's gateway, which passt sends
    // on to the node (not to the pod's own loopback).
    const nodeAddress = requireStack().podCidr.replace(/0\/24$/, "1");
    const sources: string[] = [];
    const server = createServer((socket: Socket) => {
      sources.push(socket.remoteAddress ?? "");
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, nodeAddress, resolve));
    try {
      const port = (server.address() as { port: number }).port;
      await guestShell(guest, `echo hi | nc -w 3 ${nodeAddress} ${port}`);
      await pollUntil("the guest's connection", async () => (sources.length > 0 ? true : undefined));
      assert.deepEqual(sources, [webIP]);
    } finally {
      server.close();
    }
    const dnsIP = requireStack().serviceCidr.replace(/0\/24$/, "10");
    assert.match(
      await guestShell(guest, "cat /etc/resolv.conf"),
      new RegExp(`nameserver ${dnsIP.replaceAll(".", "\\.")}`),
    );
    const kubernetesIP = requireStack().serviceCidr.replace(/0\/24$/, "1");
    const looked = await guestShell(guest, "nslookup kubernetes.default.svc.cluster.local");
    assert.ok(
      looked.includes(`Address: ${kubernetesIP}`),
      `the guest resolved a Service through passt: ${looked}`,
    );
  });

  test("the passt binding plugin (registered in the CR) gives the same: the guest answers at its pod's IP", async () => {
    await kubectl.ok(["apply", "-f", "-"], {
      input: passtVm("plugin", { binding: { name: "passt" } }, [{ port: 80 }]),
    });
    await objects.waitForVmiPhase("plugin", "Running", { timeoutMs: BOOT_MS });
    const podIP = (await launcherPod("plugin")).status?.podIP ?? "";
    const answer = await pollUntil(
      "the plugin VM's HTTP server at its pod IP",
      async () => (await httpGet(podIP, 80)).body,
      { timeoutMs: BOOT_MS },
    );
    assert.equal(answer.trim(), "plugin");
  });

  test("when the VM goes, its passt goes with it", async () => {
    const uid = (await objects.vmi("plugin"))?.metadata?.uid ?? "?";
    assert.equal((await processesNaming(`${uid}/${PASST_SOCKET_NAME}`)).length, 1);
    await kubectl.ok(["delete", "vm", "plugin", "-n", namespace, "--wait=false"]);
    await pollUntil(
      "passt to end",
      async () => ((await processesNaming(`${uid}/${PASST_SOCKET_NAME}`)).length === 0 ? true : undefined),
      { timeoutMs: 60_000 },
    );
  });
});
