/**
 * kubevirt-ts on a real Kubernetes (1.20, built from Debian's source): `npm start --
 * --real-kubernetes` brings up kube-apiserver, the controller-manager, the scheduler, a kubelet on
 * containerd and kube-proxy, builds the component images, pushes them to the node's registry and
 * installs them with KubeVirt's two `kubectl apply` commands. Then, against that cluster, with real
 * kubectl and virtctl: the components run as containers of their images, a VM boots and its console
 * answers through kube-apiserver's aggregation layer, a virt-handler restart and an image-tag roll
 * leave the same QEMU running, and Ctrl+C leaves nothing behind on the host.
 *
 * Serial: the kubelet's root and the host's libvirtd are the host's, shared with nothing else then.
 * The tests run in order and build on each other.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { parseStages } from "../../images/build/dockerfile.js";
import { Kubectl } from "../dev-cluster/testing/kubectl.js";
import { pollUntil } from "./testing/poll.js";
import { type RealKubernetesProcess, startRealKubernetes } from "./testing/real-kubernetes-process.js";
import { VirtctlSession } from "./testing/virtctl-process.js";

const run = promisify(execFile);
const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
const COMPONENTS = ["virt-operator", "virt-api", "virt-controller", "virt-handler"] as const;
const IMAGE_PREFIX = "localhost:5000/kubevirt-ts";
/** A cold run builds every image (about 8 minutes here) and, without ../shared/real-k8s, Kubernetes (13). */
const START_TIMEOUT_MS = 45 * 60_000;

interface PodList {
  items: {
    metadata: { name: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
    spec: { containers: { name: string; image: string }[] };
    status?: {
      phase?: string;
      containerStatuses?: { ready: boolean; containerID?: string; imageID?: string }[];
    };
  }[];
}

interface Vmi {
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

/** The QEMU process libvirt runs for the VM (its pid file under /var/run/libvirt/qemu). */
async function qemuPid(domain: string): Promise<number> {
  const text = await readFile(`/var/run/libvirt/qemu/${domain}.pid`, "utf8");
  const pid = Number(text.trim());
  assert.ok(
    Number.isInteger(pid) && existsSync(`/proc/${pid}`),
    `QEMU of ${domain} runs (pid ${text.trim()})`,
  );
  return pid;
}

/** The last USER of a Dockerfile's final stage (its image's user), "root" when it sets none. */
async function dockerfileUser(component: string): Promise<string> {
  const stages = parseStages(await readFile(join(root, "images", `${component}.Dockerfile`), "utf8"));
  const users = (stages.at(-1)?.instructions ?? []).filter((instruction) => instruction.keyword === "USER");
  return users.at(-1)?.argument ?? "root";
}

describe("kubevirt-ts on real Kubernetes (npm start -- --real-kubernetes)", {
  timeout: START_TIMEOUT_MS + 30 * 60_000,
}, () => {
  let dataDir = "";
  let kubeconfig = "";
  let kubectl: Kubectl;
  let cluster: RealKubernetesProcess | undefined;
  let tag = "";
  let forwardingBefore = "";
  let qemuAtBoot = 0;
  const target = () => ({ repoRoot: root, kubeconfig, namespace: "default" });
  const domain = "default_vm-tiny";

  const componentPods = async (component: string) => {
    const pods = await kubectl.json<PodList>(["pods", "-n", "kubevirt", "-l", `kubevirt.io=${component}`]);
    return pods.items.filter((pod) => !pod.metadata.deletionTimestamp);
  };
  const ready = (pod: PodList["items"][number]) =>
    pod.status?.phase === "Running" && (pod.status.containerStatuses ?? []).every((status) => status.ready);
  const vmiReady = async () => {
    const vmi = await kubectl.json<Vmi>(["vmi", "vm-tiny", "-n", "default"]);
    const isReady = vmi.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    return vmi.status?.phase === "Running" && isReady ? vmi : undefined;
  };
  /** virtctl console through kube-apiserver's aggregation layer: a command typed, its answer read. */
  const consoleAnswers = async () => {
    const session = VirtctlSession.start(target(), ["console", "vm-tiny"], { terminal: false });
    try {
      await session.messages.waitFor("Successfully connected to vm-tiny console", 60_000);
      const from = session.output.text.length;
      // Several tries: a guest still booting may not have its shell yet.
      await pollUntil(
        "the guest's shell to answer on its console",
        async () => {
          await session.type("echo answer-$((6*7))");
          return session.output.text.slice(from).includes("answer-42") ? true : undefined;
        },
        { timeoutMs: 180_000, intervalMs: 3_000 },
      );
    } finally {
      await session.escape().catch(() => {});
      session.kill();
    }
  };

  before(
    async () => {
      assert.equal(process.getuid?.(), 0, "a node needs root: its network, containerd and the kubelet");
      forwardingBefore = (await readFile("/proc/sys/net/ipv4/ip_forward", "utf8")).trim();
      dataDir = await mkdtemp(join(tmpdir(), "real-kubernetes-e2e-"));
      cluster = await startRealKubernetes({
        root,
        dataDir,
        timeoutMs: START_TIMEOUT_MS,
        buildKubernetes: true,
      });
      kubeconfig = cluster.kubeconfig;
      kubectl = new Kubectl(kubeconfig, join(dataDir, "kubectl-cache"));
      const operator = await kubectl.json<{
        spec: { template: { spec: { containers: { image: string }[] } } };
      }>(["deployment", "-n", "kubevirt", "virt-operator"]);
      tag = operator.spec.template.spec.containers[0]?.image.split(":").at(-1) ?? "";
      assert.match(tag, /^dev-[0-9a-f]{12}/);
    },
    { timeout: START_TIMEOUT_MS + 60_000 },
  );

  after(
    async () => {
      await cluster?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
    { timeout: 300_000 },
  );

  test("the node is a real kubelet on containerd, and the API server is kube-apiserver 1.20", async () => {
    const version = JSON.parse(await kubectl.ok(["version", "-o", "json"])) as {
      serverVersion: { gitVersion: string };
    };
    assert.match(version.serverVersion.gitVersion, /^v1\.20\./);
    const nodes = await kubectl.json<{
      items: { status: { nodeInfo: { containerRuntimeVersion: string; kubeletVersion: string } } }[];
    }>(["nodes"]);
    assert.equal(nodes.items.length, 1);
    assert.match(nodes.items[0]?.status.nodeInfo.containerRuntimeVersion ?? "", /^containerd:\/\//);
    assert.match(nodes.items[0]?.status.nodeInfo.kubeletVersion ?? "", /^v1\.20\./);
  });

  test("kubectl wait kv --for condition=Available succeeds", async () => {
    await kubectl.ok([
      "-n",
      "kubevirt",
      "wait",
      "kv",
      "kubevirt",
      "--for",
      "condition=Available",
      "--timeout=60s",
    ]);
  });

  test("every component runs as a container of its image from the node's registry", async () => {
    for (const component of COMPONENTS) {
      const pods = await componentPods(component);
      assert.ok(pods.length > 0, `${component} has pods`);
      for (const pod of pods) {
        assert.ok(ready(pod), `${pod.metadata.name} is Running and Ready`);
        assert.equal(pod.spec.containers[0]?.image, `${IMAGE_PREFIX}/${component}:${tag}`);
        assert.match(pod.status?.containerStatuses?.[0]?.containerID ?? "", /^containerd:\/\//);
        // Pulled from the registry: the runtime knows the image by its registry digest.
        assert.match(pod.status?.containerStatuses?.[0]?.imageID ?? "", /@sha256:[0-9a-f]{64}$/);
      }
    }
  });

  test("each image's entry point starts (--help) and its process runs as the Dockerfile's user", async () => {
    const podmanRun = (image: string, args: readonly string[]) =>
      run("podman", ["run", "--rm", "--runtime", "runc", "--network", "none", image, ...args]).then(
        (result) => ({ code: 0, output: result.stdout + result.stderr }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? 1,
          output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
        }),
      );
    for (const component of [...COMPONENTS, "cdi-importer"]) {
      const image = `${IMAGE_PREFIX}/${component}:${tag}`;
      if (component === "cdi-importer") {
        // CDI's importer takes its job from the environment (IMPORTER_*), as CDI's does: without
        // one it starts, loads its modules and says what it lacks.
        const started = await podmanRun(image, []);
        assert.notEqual(started.code, 0);
        assert.match(started.output, /IMPORTER_SOURCE "" is not one of http, registry, blank, pvc/);
      } else {
        const help = await podmanRun(image, ["--help"]);
        assert.equal(help.code, 0, help.output);
        assert.match(help.output, new RegExp(`Usage: ${component}`), `${component} --help`);
      }
      const configured = (
        await run("podman", ["image", "inspect", "--format", "{{.Config.User}}", image])
      ).stdout.trim();
      const user = await dockerfileUser(component);
      assert.equal(configured || "root", user, `${component}'s image user`);
    }
    // In the cluster, through kube-apiserver's exec to the kubelet: the same users.
    for (const component of COMPONENTS) {
      const [pod] = await componentPods(component);
      assert.ok(pod);
      const uid = (await kubectl.ok(["exec", "-n", "kubevirt", pod.metadata.name, "--", "id", "-u"])).trim();
      const expected = (await dockerfileUser(component)).split(":")[0];
      assert.equal(uid, expected === "root" ? "0" : expected, `${component} runs as uid ${uid}`);
    }
  });

  test("a VM boots, its launcher runs as 65532, and its console answers through the aggregation layer", async () => {
    await kubectl.ok(["apply", "-n", "default", "-f", join(root, "examples", "vm-tiny.yaml")]);
    await pollUntil("vm-tiny's VMI to be Running and Ready", vmiReady, {
      timeoutMs: 300_000,
      intervalMs: 1_000,
    });
    qemuAtBoot = await qemuPid(domain);
    const launchers = await kubectl.json<PodList>([
      "pods",
      "-n",
      "default",
      "-l",
      "kubevirt.io=virt-launcher",
    ]);
    const launcher = launchers.items.find((pod) => ready(pod));
    assert.ok(launcher, "the launcher pod is Ready");
    assert.equal(launcher.spec.containers[0]?.image, `${IMAGE_PREFIX}/virt-launcher:${tag}`);
    const uid = await kubectl.ok([
      "exec",
      "-n",
      "default",
      launcher.metadata.name,
      "--",
      "/bin/busybox",
      "id",
      "-u",
    ]);
    assert.equal(uid.trim(), "65532");
    await consoleAnswers();
  });

  test("QEMU is accounted to its launcher pod: a memory limit's cgroup holds and caps it", async () => {
    // vm-tiny with a memory limit: the launcher pod's limit is that plus QEMU's overhead.
    const manifest = parse(await readFile(join(root, "examples", "vm-tiny.yaml"), "utf8")) as {
      metadata: { name: string; labels: Record<string, string> };
      spec: {
        template: { metadata: { labels: Record<string, string> }; spec: { domain: { resources: object } } };
      };
    };
    manifest.metadata = { name: "vm-capped", labels: { "kubevirt.io/vm": "vm-capped" } };
    manifest.spec.template.metadata.labels = { "kubevirt.io/vm": "vm-capped" };
    manifest.spec.template.spec.domain.resources = {
      requests: { memory: "128Mi" },
      limits: { memory: "128Mi" },
    };
    await kubectl.apply(stringify(manifest));
    const launcher = await pollUntil(
      "vm-capped's launcher pod and QEMU",
      async () => {
        const pods = await kubectl.json<PodList>(["pods", "-n", "default", "-l", "kubevirt.io/vm=vm-capped"]);
        const pod = pods.items.find((candidate) => ready(candidate));
        return pod && existsSync("/var/run/libvirt/qemu/default_vm-capped.pid") ? pod : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 1_000 },
    );
    const limit = (
      launcher.spec.containers[0] as { resources?: { limits?: { memory?: string } } } | undefined
    )?.resources?.limits?.memory;
    assert.equal(limit, "283Mi", "128Mi + 11Mi + TCG's 144Mi");
    const qemu = await qemuPid("default_vm-capped");
    const memoryCgroup = await pollUntil(
      "QEMU to be in the launcher's compute container's memory cgroup",
      async () => {
        const path = /^\d+:memory:(.*)$/m.exec(await readFile(`/proc/${qemu}/cgroup`, "utf8"))?.[1] ?? "";
        return path.includes(`pod${launcher.metadata.uid}/`) ? path : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const cgroup = join("/sys/fs/cgroup/memory", memoryCgroup);
    const read = async (file: string) => Number((await readFile(join(cgroup, file), "utf8")).trim());
    assert.equal(
      await read("memory.limit_in_bytes"),
      283 * 1024 * 1024,
      "the kernel enforces the pod's limit on QEMU",
    );
    // The guest's memory is charged to the pod: more than QEMU had before it was moved there.
    await pollUntil(
      "the guest's memory to be charged to the pod",
      async () => ((await read("memory.usage_in_bytes")) > 64 * 1024 * 1024 ? true : undefined),
      {
        timeoutMs: 120_000,
        intervalMs: 1_000,
      },
    );
    assert.ok((await read("memory.max_usage_in_bytes")) <= 283 * 1024 * 1024);
    await kubectl.ok(["delete", "vm", "vm-capped", "-n", "default", "--wait=true"]);
  });

  test("a new virt-handler pod adopts the VM: the same QEMU keeps running", async () => {
    const [old] = await componentPods("virt-handler");
    assert.ok(old);
    await kubectl.ok(["delete", "pod", "-n", "kubevirt", old.metadata.name, "--wait=true"]);
    await pollUntil(
      "a new virt-handler pod to be Ready",
      async () => {
        const pods = await componentPods("virt-handler");
        return pods.some((pod) => pod.metadata.name !== old.metadata.name && ready(pod)) ? true : undefined;
      },
      { timeoutMs: 300_000, intervalMs: 1_000 },
    );
    assert.equal(await qemuPid(domain), qemuAtBoot);
    assert.ok(await vmiReady(), "the VMI is still Running and Ready");
    await consoleAnswers();
  });

  test("an image-tag change rolls every component without stopping the VM", async () => {
    const registry = (await readFile(join(dataDir, "registry", "address"), "utf8")).trim();
    const newTag = `${tag}-rolled`;
    for (const component of [...COMPONENTS, "virt-launcher", "cdi-importer"]) {
      const image = `${IMAGE_PREFIX}/${component}`;
      await run("podman", ["tag", `${image}:${tag}`, `${image}:${newTag}`]);
      await run("podman", [
        ...["push", "--tls-verify=false", `${image}:${newTag}`],
        `docker://${registry}/kubevirt-ts/${component}:${newTag}`,
      ]);
    }
    await kubectl.ok([
      ...["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge"],
      ...["-p", JSON.stringify({ spec: { imageTag: newTag } })],
    ]);
    // The operator itself is the bundle's (as in KubeVirt); what it installs moves to the new tag.
    for (const component of ["virt-api", "virt-controller", "virt-handler"]) {
      await pollUntil(
        `${component} to run only ${newTag}`,
        async () => {
          const pods = await componentPods(component);
          const rolled = pods.every(
            (pod) => pod.spec.containers[0]?.image.endsWith(`:${newTag}`) && ready(pod),
          );
          return pods.length > 0 && rolled ? true : undefined;
        },
        { timeoutMs: 300_000, intervalMs: 2_000 },
      );
    }
    await kubectl.ok([
      "-n",
      "kubevirt",
      "wait",
      "kv",
      "kubevirt",
      "--for",
      "condition=Available",
      "--timeout=120s",
    ]);
    assert.equal(await qemuPid(domain), qemuAtBoot);
    await consoleAnswers();
  });

  test("Ctrl+C stops the VM and the node, and leaves the host's network as it was", async () => {
    assert.ok(cluster);
    const code = await cluster.stop();
    assert.equal(code, 0, `it stopped cleanly:\n${cluster.output().slice(-2000)}`);
    assert.ok(!existsSync(`/proc/${qemuAtBoot}`), "the VM's QEMU is gone");
    assert.equal((await readFile("/proc/sys/net/ipv4/ip_forward", "utf8")).trim(), forwardingBefore);
    const links = (await run("ip", ["-o", "link", "show"])).stdout;
    assert.doesNotMatch(links, /kvts-node|kvts-cni0/);
    const rules = (await run("iptables-save")).stdout;
    assert.doesNotMatch(rules, /KUBE-/);
    const mounts = await readFile("/proc/self/mountinfo", "utf8");
    assert.doesNotMatch(mounts, / \/var\/lib\/kubelet[ /]/);
  });
});
