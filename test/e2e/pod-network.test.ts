/**
 * VMs on the pod network, end to end on `npm start`'s stack with the real kubectl, libvirt and
 * QEMU (TCG): a masquerade VM answers at its launcher pod's IP (the guest took its address by
 * DHCP from its launcher), its status says so, an unlisted port ends in the pod, a VM reaches
 * another VM by its pod IP, and a VM keeps its network while virt-handler is killed and restarts.
 * Runs as root (pod network namespaces, qemu:///system). The tests run in order and build on each
 * other.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { TEST_GUEST_BANNER } from "../guest/guest-console.js";
import { httpsGet } from "../harness/https-get.js";
import { guestShell } from "./testing/guest-shell.js";
import { httpGet } from "./testing/http-get.js";
import { type Pod, podKind, type VirtualMachineInstance } from "./testing/kinds.js";
import { type KubevirtStack, startKubevirtStack } from "./testing/kubevirt-stack.js";
import { componentPids } from "./testing/node-processes.js";
import { pollUntil } from "./testing/poll.js";
import { type GuestConsole, RunDomains } from "./testing/run-domains.js";
import { RunObjects } from "./testing/run-objects.js";
import { tearDownRun } from "./testing/run-teardown.js";
import { runVirtctl } from "./testing/virtctl-process.js";
import { tinyVm } from "./testing/vm-manifests.js";

const BOOT_MS = 90_000;

describe("VMs on the pod network: masquerade and bridge", { timeout: 300_000 }, () => {
  const namespace = `net-${process.pid}-${Date.now().toString(36).slice(-4)}`;
  let workDir = "";
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl;
  let objects: RunObjects;
  let domains: RunDomains | undefined;
  let webIP = "";
  let peerConsole: GuestConsole | undefined;

  const requireStack = () => {
    if (!stack) throw new Error("the stack is not up");
    return stack;
  };
  const requireDomains = () => {
    if (!domains) throw new Error("libvirt is not connected");
    return domains;
  };
  const launcherPod = async (vm: string): Promise<Pod> => {
    const [pod] = await objects.launcherPods(vm);
    assert.ok(pod, `${vm} has a launcher pod`);
    return pod;
  };

  before(async () => {
    assert.equal(process.getuid?.(), 0, "this test needs root: pod network namespaces and qemu:///system");
    workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-net-"));
    domains = await RunDomains.open(namespace);
    stack = await startKubevirtStack(workDir, { tag: "net" });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    objects = new RunObjects(stack.client, namespace);
    await kubectl.ok(["create", "namespace", namespace]);
  });

  after(async () => {
    peerConsole?.close();
    await tearDownRun({ label: "pod-network", namespace, workDir, stack, kubectl, domains });
  });

  test("a masquerade VM reports its launcher pod's IP, and kubectl get vmi shows it", async () => {
    await kubectl.apply(JSON.stringify(tinyVm(requireStack().repoRoot, { name: "web", namespace })));
    const vmi: VirtualMachineInstance = await objects.waitForVmiPhase("web", "Running", {
      timeoutMs: BOOT_MS,
    });
    const pod = await launcherPod("web");
    const podIP = pod.status?.podIP ?? "";
    assert.match(podIP, /^\d+\.\d+\.\d+\.\d+$/, "the launcher pod has an IP");
    const reported = await pollUntil("the VMI's interface to carry the pod's IP", async () => {
      const current = await objects.vmi("web");
      return current?.status?.interfaces?.[0]?.ipAddress ? current.status.interfaces[0] : undefined;
    });
    assert.equal(reported.ipAddress, podIP);
    assert.deepEqual(reported.ipAddresses, [podIP]);
    assert.equal(reported.name, "default");
    assert.equal(reported.podInterfaceName, "eth0");
    assert.match(reported.mac ?? "", /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    assert.equal(vmi.status?.nodeName, requireStack().nodeName);
    const table = await kubectl.ok(["get", "vmi", "web", "-n", namespace]);
    assert.match(table, new RegExp(`^web\\s+\\S+\\s+Running\\s+${podIP.replaceAll(".", "\\.")}\\s`, "m"));
    webIP = podIP;
  });

  test("HTTP from the node to the pod's IP is answered by the guest (its address came by DHCP from the launcher)", async () => {
    const answer = await pollUntil(
      "the guest's HTTP server at the pod IP",
      async () => {
        const got = await httpGet(webIP, 80);
        return got.body !== undefined ? got.body : undefined;
      },
      { timeoutMs: BOOT_MS },
    );
    assert.equal(answer.trim(), "web", "the guest answers with its hostname");
  });

  test("the VM's kubevirt_vmi_network_* counters are the traffic its guest took and sent", async () => {
    const caSecret = await kubectl.json<{ data: Record<string, string> }>([
      "secret",
      "kubevirt-ca",
      "-n",
      "kubevirt",
    ]);
    const ca = Buffer.from(caSecret.data["tls.crt"] ?? "", "base64").toString("utf8");
    const pods = await requireStack().client.resource(podKind).list({ namespace: "kubevirt" });
    const handler = pods.items.find((pod) => pod.metadata?.labels?.["kubevirt.io"] === "virt-handler");
    assert.ok(handler?.status?.podIP, "virt-handler has an IP");
    const counters = async (): Promise<Map<string, number>> => {
      const answer = await httpsGet(`https://${handler.status?.podIP}:8443/metrics`, {
        ca,
        checkHostName: false,
      });
      const found = new Map<string, number>();
      const series = /^(kubevirt_vmi_network_\w+)\{([^}]*)\} (\S+)$/gm;
      for (const [, metric, labels, value] of answer.body.matchAll(series)) {
        if (
          labels?.includes(`namespace="${namespace}"`) &&
          labels.includes('name="web"') &&
          labels.includes('interface="default"')
        ) {
          found.set(metric ?? "", Number(value));
        }
      }
      return found;
    };
    const before = await pollUntil("the VM's network series", async () => {
      const current = await counters();
      return current.has("kubevirt_vmi_network_receive_bytes_total") ? current : undefined;
    });
    for (let i = 0; i < 20; i++) assert.equal((await httpGet(webIP, 80)).body?.trim(), "web");
    const after = await counters();
    const grew = (metric: string) => (after.get(metric) ?? 0) - (before.get(metric) ?? 0);
    assert.ok(grew("kubevirt_vmi_network_receive_packets_total") >= 20, "20 requests reached the guest");
    assert.ok(grew("kubevirt_vmi_network_receive_bytes_total") > 20 * 40, "their bytes were counted");
    assert.ok(grew("kubevirt_vmi_network_transmit_bytes_total") > 20 * 40, "the answers were counted");
    assert.equal(after.get("kubevirt_vmi_network_receive_errors_total"), 0);
  });

  test("a port the interface does not list is not forwarded: it ends in the pod", async () => {
    const vm = tinyVm(requireStack().repoRoot, { name: "narrow", namespace });
    const iface = vm.spec.template.spec.domain.devices.interfaces?.[0];
    assert.ok(iface, "examples/vm-tiny.yaml has an interface");
    iface.ports = [{ name: "ssh", port: 22 }];
    await kubectl.apply(JSON.stringify(vm));
    peerConsole = await requireDomains().attachConsole(`${namespace}_narrow`, { timeoutMs: BOOT_MS });
    await peerConsole.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
    await objects.waitForVmiPhase("narrow", "Running", { timeoutMs: BOOT_MS });
    const narrowIP = (await launcherPod("narrow")).status?.podIP ?? "";
    // The guest's httpd listens on 80 (as web's answered), but only 22 is forwarded to it.
    await pollUntil("the guest to have its address", async () =>
      /udhcpc: eth0 10\.0\.2\.2\/24/.test(await guestShell(peerConsole, "cat /run/udhcpc.log"))
        ? true
        : undefined,
    );
    const refused = await httpGet(narrowIP, 80);
    assert.equal(
      refused.error,
      "ECONNREFUSED",
      `port 80 of ${narrowIP} is closed: ${JSON.stringify(refused)}`,
    );
  });

  test("one VM reaches another by its pod IP, from inside the guest", async () => {
    // busybox nc, not wget: the static busybox's wget crashes in glibc's resolver even for an address.
    const out = await guestShell(
      peerConsole,
      `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 ${webIP} 80 | tail -n 1`,
    );
    assert.match(out, /\nweb\r?\n/, `narrow's guest fetched web's page: ${out}`);
  });

  test("virtctl expose: a pod reaches the VM by Service name, the node by NodePort, a VM by the DNS its DHCP gave; outside goes nowhere", async () => {
    const node = requireStack();
    const virtctl = { repoRoot: node.repoRoot, kubeconfig: node.kubeconfig, namespace };
    for (const args of [
      ["expose", "vm", "web", "--name", "web-svc", "--port", "8000", "--target-port", "80"],
      [
        "expose",
        "vm",
        "web",
        "--name",
        "web-np",
        "--port",
        "8000",
        "--target-port",
        "80",
        "--type",
        "NodePort",
      ],
    ]) {
      const exposed = await runVirtctl(virtctl, args);
      assert.equal(exposed.code, 0, `virtctl ${args.join(" ")}: ${exposed.stderr}`);
    }
    const service = await kubectl.json<{ spec: { clusterIP: string; ports: { nodePort?: number }[] } }>([
      ...["service", "web-svc", "-n", namespace],
    ]);
    await pollUntil("the Service's endpoints to hold the VM", async () => {
      const endpoints = await kubectl.json<{ subsets?: { addresses?: { ip: string }[] }[] }>([
        ...["endpoints", "web-svc", "-n", namespace],
      ]);
      return endpoints.subsets?.some((subset) => subset.addresses?.some((address) => address.ip === webIP))
        ? true
        : undefined;
    });
    // A process in virt-api's pod: its network namespace and its own resolv.conf (the cluster DNS).
    const [apiPod] = (
      await kubectl.json<{ items: Pod[] }>(["pods", "-n", "kubevirt", "-l", "kubevirt.io=virt-api"])
    ).items;
    assert.ok(apiPod?.metadata?.uid, "virt-api runs in a pod");
    const fromPod = await pollUntil("an answer from the pod through the Service's name", async () => {
      const out = await fetchInPod(
        `${node.bridge}-${apiPod.metadata?.uid}`,
        `http://web-svc.${namespace}.svc.cluster.local:8000/`,
      );
      return out.trim() === "web" ? out : undefined;
    });
    assert.equal(fromPod.trim(), "web", "the guest answered a pod that named its Service");

    const nodePort = (
      await kubectl.json<{ spec: { ports: { nodePort?: number }[] } }>(["service", "web-np", "-n", namespace])
    ).spec.ports[0]?.nodePort;
    assert.ok(nodePort, "the NodePort Service has a node port");
    const nodeObject = await kubectl.json<{ status: { addresses: { type: string; address: string }[] } }>([
      ...["node", node.nodeName],
    ]);
    const internalIP =
      nodeObject.status.addresses.find((address) => address.type === "InternalIP")?.address ?? "";
    assert.equal((await httpGet(internalIP, nodePort)).body?.trim(), "web", "the NodePort reaches the guest");

    const resolvConf = await guestShell(peerConsole, "cat /etc/resolv.conf");
    assert.match(
      resolvConf,
      new RegExp(`search ${namespace}\\.svc\\.cluster\\.local svc\\.cluster\\.local cluster\\.local`),
    );
    const dnsIP = node.serviceCidr.replace(/0\/24$/, "10");
    assert.match(
      resolvConf,
      new RegExp(`nameserver ${dnsIP.replaceAll(".", "\\.")}`),
      "the cluster DNS came by DHCP",
    );
    // busybox's nslookup asks the server itself (the static busybox cannot use glibc's resolver).
    const looked = await guestShell(peerConsole, "nslookup web-svc");
    assert.ok(looked.includes(service.spec.clusterIP), `the guest resolved the short name: ${looked}`);
    const viaService = await guestShell(
      peerConsole,
      `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 ${service.spec.clusterIP} 8000 | tail -n 1`,
    );
    assert.match(viaService, /\nweb\r?\n/, `a VM reached the other through its ClusterIP: ${viaService}`);
    const outside = await guestShell(peerConsole, "nc -w 3 198.51.100.1 80 </dev/null; echo rc=$?");
    assert.match(outside, /rc=1/, `an address outside the cluster is unreachable from a guest: ${outside}`);
  });

  test("a VM that names no interface gets KubeVirt's default, bridge: the guest itself holds the pod's IP", async () => {
    const vm = tinyVm(requireStack().repoRoot, { name: "plain", namespace });
    const template = vm.spec.template.spec as {
      networks?: unknown;
      domain: { devices: { interfaces?: unknown } };
    };
    delete template.domain.devices.interfaces;
    delete template.networks;
    await kubectl.apply(JSON.stringify(vm));
    const guest = await requireDomains().attachConsole(`${namespace}_plain`, { timeoutMs: BOOT_MS });
    try {
      await guest.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
      const vmi = await objects.waitForVmiPhase("plain", "Running", { timeoutMs: BOOT_MS });
      const podIP = (await launcherPod("plain")).status?.podIP ?? "";
      const stored = (await objects.vmi("plain")) as {
        spec?: { domain?: { devices?: { interfaces?: unknown } } };
      };
      assert.deepEqual(
        stored.spec?.domain?.devices?.interfaces,
        [{ name: "default", bridge: {} }],
        "the defaults added KubeVirt's pod interface",
      );
      await pollUntil("the guest to take the pod's address by DHCP", async () =>
        (await guestShell(guest, "ip -4 addr show dev eth0")).includes(`inet ${podIP}/`) ? true : undefined,
      );
      const answer = await pollUntil("the guest's HTTP server at the pod IP", async () => {
        const got = await httpGet(podIP, 80);
        return got.body;
      });
      assert.equal(answer.trim(), "plain");
      // Its Service traffic is bridged through the launcher pod, whose rules translate it.
      const clusterIP = (
        await kubectl.json<{ spec: { clusterIP: string } }>(["service", "web-svc", "-n", namespace])
      ).spec.clusterIP;
      const looked = await guestShell(guest, "nslookup web-svc");
      assert.ok(looked.includes(clusterIP), `the bridged guest resolved the Service: ${looked}`);
      const viaService = await guestShell(
        guest,
        `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 5 ${clusterIP} 8000 | tail -n 1`,
      );
      assert.match(viaService, /\nweb\r?\n/, `a bridged VM reached a Service: ${viaService}`);
      const reported = await pollUntil("the VMI's interface with the pod's IP", async () =>
        (await objects.vmi("plain"))?.status?.interfaces?.[0]?.ipAddress === podIP ? true : undefined,
      );
      assert.ok(reported && vmi.status?.nodeName);
    } finally {
      guest.close();
    }
  });

  test("probes: readiness drives the VMI's Ready and the Service's endpoints; a liveness failure restarts the VM", async () => {
    const vm = tinyVm(requireStack().repoRoot, { name: "probed", namespace });
    const template = vm.spec.template.spec as Record<string, unknown>;
    // Readiness on a second HTTP server the test starts and stops; liveness on the guest's own on 80.
    template.readinessProbe = { tcpSocket: { port: 8080 }, periodSeconds: 1, failureThreshold: 1 };
    template.livenessProbe = {
      tcpSocket: { port: 80 },
      initialDelaySeconds: 5,
      periodSeconds: 1,
      failureThreshold: 3,
    };
    await kubectl.apply(JSON.stringify(vm));
    const service = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "probed", namespace },
      spec: { selector: { "vmi.kubevirt.io/id": "probed" }, ports: [{ port: 8080 }] },
    };
    await kubectl.apply(JSON.stringify(service));
    const guest = await requireDomains().attachConsole(`${namespace}_probed`, { timeoutMs: BOOT_MS });
    try {
      await guest.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS);
      const first = await objects.waitForVmiPhase("probed", "Running", { timeoutMs: BOOT_MS });
      const ready = async () =>
        (await objects.vmi("probed"))?.status?.conditions?.find((condition) => condition.type === "Ready")
          ?.status;
      const endpoints = async () => {
        const list = await kubectl.json<{ subsets?: { addresses?: { ip: string }[] }[] }>([
          ...["endpoints", "probed", "-n", namespace],
        ]);
        return (list.subsets ?? []).flatMap((subset) => subset.addresses ?? []).map((address) => address.ip);
      };
      assert.equal(await ready(), "False", "not Ready before the readiness probe passes");
      await guestShell(guest, "httpd -p 8080 -h /run/www");
      await pollUntil("the VMI Ready once its readiness probe passes", async () =>
        (await ready()) === "True" ? true : undefined,
      );
      const podIP = (await launcherPod("probed")).status?.podIP ?? "";
      await pollUntil("the Service's endpoints to hold the VM", async () =>
        (await endpoints()).includes(podIP) ? true : undefined,
      );
      await guestShell(guest, "kill $(ps | awk '/httpd -p 808[0]/ {print $1}')");
      await pollUntil("the VMI not Ready once the probe fails", async () =>
        (await ready()) === "False" ? true : undefined,
      );
      await pollUntil("the Service to drop the VM", async () =>
        (await endpoints()).includes(podIP) ? undefined : true,
      );
      await guestShell(guest, "httpd -p 8080 -h /run/www");
      await pollUntil("Ready again", async () => ((await ready()) === "True" ? true : undefined));
      await guestShell(guest, "kill $(ps | awk '/httpd -p 8[0] / {print $1}')");
      const restarted = await pollUntil(
        "a new VMI after the liveness probe failed (runStrategy Always)",
        async () => {
          const current = await objects.vmi("probed");
          return current?.metadata?.uid !== first.metadata?.uid && current?.status?.phase === "Running"
            ? current
            : undefined;
        },
        { timeoutMs: BOOT_MS },
      );
      assert.notEqual(restarted.metadata?.uid, first.metadata?.uid);
    } finally {
      guest.close();
    }
  });

  test("after kill -9 of virt-handler the VM keeps its address and its connections, and answers throughout", async () => {
    const node = requireStack();
    const handlers = componentPids(node, "virt-handler");
    assert.equal(handlers.length, 1, "one virt-handler process");
    const [handlerPid] = handlers as [number];
    // A connection open across the kill: half a request now, the rest once virt-handler is back.
    const open = connect({ host: webIP, port: 80 });
    const reply: Buffer[] = [];
    open.on("data", (chunk: Buffer) => reply.push(chunk));
    const closed = new Promise<void>((resolve) => open.on("close", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      open.once("connect", resolve);
      open.once("error", reject);
    });
    open.write("GET / HTTP/1.0\r\n");
    process.kill(handlerPid, "SIGKILL");
    const whileAway = await httpGet(webIP, 80);
    assert.equal(whileAway.body?.trim(), "web", "the guest answers while virt-handler is down");
    await pollUntil("the node agent to restart virt-handler", () => {
      const pids = componentPids(node, "virt-handler");
      return pids.length === 1 && pids[0] !== handlerPid ? pids[0] : undefined;
    });
    const after = await httpGet(webIP, 80);
    assert.equal(after.body?.trim(), "web");
    assert.equal((await objects.vmi("web"))?.status?.interfaces?.[0]?.ipAddress, webIP);
    open.end("\r\n");
    await closed;
    assert.match(
      Buffer.concat(reply).toString(),
      /^HTTP\/1\.[01] 200 [\s\S]*\r\n\r\nweb\n?$/,
      "the connection outlived virt-handler",
    );
  });
});

/** GET `url` from a process in a pod's network namespace and resolver (`ip netns exec`, as its containers run). */
function fetchInPod(netns: string, url: string): Promise<string> {
  const script = `fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(5000) }).then((r) => r.text()).then((t) => process.stdout.write(t), (e) => process.stdout.write(String(e.cause ?? e)))`;
  return new Promise((resolve) => {
    execFile(
      "ip",
      ["netns", "exec", netns, process.execPath, "-e", script],
      { timeout: 10_000 },
      (_error, stdout) => resolve(stdout),
    );
  });
}
