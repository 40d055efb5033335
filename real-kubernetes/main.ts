#!/usr/bin/env node
/**
 * `npm start -- --real-kubernetes` (node dist/real-kubernetes/main.js): a single-node real
 * Kubernetes 1.20 on this machine, then kubevirt-ts installed on it from its images, as a user
 * installs it on any cluster. Runs in the foreground; Ctrl+C (SIGINT or SIGTERM) tears it down:
 * VMIs first (so no QEMU outlives the cluster), then the node, then the control plane. The data
 * directory keeps etcd, the certificates and the registry, so a second run resumes. This file only
 * wires; the parts are in their own files.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Command } from "commander";
import { findRepositoryRoot } from "../api/crd/repository-root.js";
import { MIRRORED_HOSTS } from "../dev-cluster/registry/dev-registry.js";
import { writeRegistryMirrors } from "../dev-cluster/registry/registry-mirrors.js";
import { startRegistry } from "../dev-cluster/registry/start-registry.js";
import { componentLogger } from "../runtime/index.js";
import { ensureClusterPki, kubeconfigYaml } from "./cluster-pki.js";
import {
  containerdPaths,
  containerdSpec,
  importImage,
  releasePodNetworks,
  removeAllContainers,
  writeContainerdFiles,
} from "./containerd.js";
import { apiServerSpec, controllerManagerSpec, etcdSpec, schedulerSpec } from "./control-plane.js";
import { buildAndPushImages, installKubevirt, kubectl } from "./install-kubevirt.js";
import { removeKubernetesChains } from "./iptables-cleanup.js";
import { kubeletSpec, kubeProxyCleanupArgs, kubeProxySpec } from "./kubelet.js";
import { ensureKubernetesBinaries } from "./kubernetes-binaries.js";
import { API_SERVER_URL, CONTAINERD_HOSTS_DIR, dataPaths, KUBELET_ROOT, NODE_IP, PORTS } from "./layout.js";
import { setUpNodeNetwork, tearDownNodeNetwork } from "./node-network.js";
import { buildPauseArchive } from "./pause-image.js";
import { removeOwnMirrors } from "./registry-mirror-files.js";
import { type SupervisedProcess, startSupervised } from "./supervised-process.js";
import { unmountBelow } from "./unmount.js";

const run = promisify(execFile);
const root = findRepositoryRoot(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));

const options = new Command("real-kubernetes")
  .description("A single-node real Kubernetes 1.20 with kubevirt-ts installed from its images")
  .option("--data-dir <dir>", "etcd, certificates, registry, logs", ".local/real-kubernetes")
  .option("--kubeconfig <path>", "where the admin kubeconfig is written", ".local/kubeconfig")
  .option("--use-emulation", "set the KubeVirt CR's useEmulation (a node without usable KVM)", false)
  .option("--no-install", "bring up the cluster only")
  .option("--build-kubernetes", "build Kubernetes from Debian's source when no binaries are found", false)
  .parse()
  .opts<{
    dataDir: string;
    kubeconfig: string;
    useEmulation: boolean;
    install: boolean;
    buildKubernetes: boolean;
  }>();

const say = (line: string) => process.stdout.write(`real-kubernetes: ${line}\n`);
const log = componentLogger({ name: "real-kubernetes", level: process.env.LOG_LEVEL ?? "warn" });
const paths = dataPaths(resolve(options.dataDir));
const kubeconfig = resolve(options.kubeconfig);
const networkState = join(resolve(options.dataDir), "node-network.json");
/** Written once kubevirt-ts is Available (what a test or script waits for). */
const readyFile = join(resolve(options.dataDir), "ready");
const containerd = containerdPaths(paths.containerd, paths.cni);
const started: { stop(): Promise<void> }[] = [];
let stopping: Promise<void> | undefined;

async function up(): Promise<SupervisedProcess[]> {
  await rm(readyFile, { force: true });
  if (process.getuid?.() !== 0)
    throw new Error("must run as root: it sets up a node (network, containerd, kubelet)");
  for (const dir of Object.values(paths))
    if (!dir.endsWith(".kubeconfig")) await mkdir(dir, { recursive: true });
  const binaries = await ensureKubernetesBinaries({
    root,
    binDir: paths.bin,
    buildIfMissing: options.buildKubernetes,
    log: say,
  });
  const pki = await ensureClusterPki(paths.pki);
  const kubeconfigs = {
    controllerManager: join(paths.pki, "kube-controller-manager.kubeconfig"),
    scheduler: join(paths.pki, "kube-scheduler.kubeconfig"),
    kubelet: join(paths.pki, "kubelet.kubeconfig"),
    proxy: join(paths.pki, "kube-proxy.kubeconfig"),
  };
  await writeFile(
    kubeconfigs.controllerManager,
    await kubeconfigYaml(pki, "kube-controller-manager", API_SERVER_URL),
    { mode: 0o600 },
  );
  await writeFile(kubeconfigs.scheduler, await kubeconfigYaml(pki, "kube-scheduler", API_SERVER_URL), {
    mode: 0o600,
  });
  await writeFile(kubeconfigs.kubelet, await kubeconfigYaml(pki, "kubelet", API_SERVER_URL), { mode: 0o600 });
  await writeFile(kubeconfigs.proxy, await kubeconfigYaml(pki, "kube-proxy", API_SERVER_URL), {
    mode: 0o600,
  });
  await mkdir(dirname(kubeconfig), { recursive: true });
  await writeFile(kubeconfig, await kubeconfigYaml(pki, "admin", API_SERVER_URL), { mode: 0o600 });

  say("setting up the node's network");
  await setUpNodeNetwork(networkState);
  started.push({ stop: () => tearDownNodeNetwork(networkState) });
  const daemons: SupervisedProcess[] = [];
  const start = async (spec: Parameters<typeof startSupervised>[0]) => {
    say(`starting ${spec.name}`);
    const daemon = await startSupervised(spec, paths.logs);
    daemons.push(daemon);
    started.push({ stop: () => daemon.stop() });
    return daemon;
  };
  const inputs = { binaries, pki, etcdDir: paths.etcd, kubeconfigs };
  await start(etcdSpec(inputs));
  await start(await apiServerSpec(inputs));
  await start(controllerManagerSpec(inputs));
  await start(schedulerSpec(inputs));

  const registry = await startRegistry({
    dataDir: paths.registry,
    address: `${NODE_IP}:${PORTS.registry}`,
    log,
  });
  started.push({ stop: () => registry.stop() });
  await writeRegistryMirrors(CONTAINERD_HOSTS_DIR, { mirrorHosts: MIRRORED_HOSTS, endpoint: registry.url });
  started.push({ stop: () => removeOwnMirrors(CONTAINERD_HOSTS_DIR, MIRRORED_HOSTS) });

  const pauseArchive = join(paths.containerd, "pause.oci.tar");
  await rm(pauseArchive, { force: true });
  const pauseImage = await buildPauseArchive({ root, archive: pauseArchive, log: say });
  await writeContainerdFiles(containerd, pauseImage);
  // Stopped after the kubelet, and its containers with it (their shims outlive containerd).
  const runtime = await start(containerdSpec(containerd));
  started.pop();
  started.push({
    stop: async () => {
      await removeAllContainers(containerd);
      await runtime.stop();
      await releasePodNetworks(containerd);
      await unmountBelow(KUBELET_ROOT);
    },
  });
  await importImage(containerd, pauseArchive);
  // Runs once both the kubelet and kube-proxy are stopped (stops go in reverse order).
  started.push({
    stop: async () => {
      await run(binaries["kube-proxy"], kubeProxyCleanupArgs()).catch(() => {});
      await removeKubernetesChains();
    },
  });
  await start(
    await kubeletSpec({
      binaries,
      pki,
      kubeletDir: paths.kubelet,
      kubeconfig: kubeconfigs.kubelet,
      containerdSocket: containerd.socket,
    }),
  );
  await start(kubeProxySpec({ binaries, kubeconfig: kubeconfigs.proxy }));
  say(`node ${NODE_IP} is up; waiting for it to be Ready`);
  await kubectl(kubeconfig, ["wait", "--for=condition=Ready", "node", "--all", "--timeout=120s"]);

  if (options.install) {
    const tag = await imageTag();
    say(`building the images (podman, cached) as localhost:5000/kubevirt-ts/*:${tag}`);
    const install = {
      root,
      kubeconfig,
      registryAddress: registry.address,
      tag,
      deployDir: paths.deploy,
      useEmulation: options.useEmulation,
      log: say,
    };
    await buildAndPushImages(install);
    say("pushing the test guest as localhost:5000/kubevirt-ts/test-guest:latest");
    await run(process.execPath, [
      join(root, "dist", "test", "guest", "main.js"),
      "--registry",
      registry.address,
    ]);
    await installKubevirt(install);
    // VMs end before the node does: their QEMU runs under the host's libvirtd.
    started.push({ stop: () => deleteVmis() });
  }
  return daemons;
}

/** The images' tag: the commit, and a digest of uncommitted changes when there are any. */
async function imageTag(): Promise<string> {
  const commit = (await run("git", ["-C", root, "rev-parse", "--short=12", "HEAD"])).stdout.trim();
  const diff = (await run("git", ["-C", root, "diff", "HEAD"], { maxBuffer: 256 * 1024 * 1024 })).stdout;
  if (diff.length === 0) return `dev-${commit}`;
  const { createHash } = await import("node:crypto");
  return `dev-${commit}-${createHash("sha256").update(diff).digest("hex").slice(0, 8)}`;
}

async function deleteVmis(): Promise<void> {
  await kubectl(kubeconfig, [
    "delete",
    "vmi",
    "--all",
    "--all-namespaces",
    "--wait=true",
    "--timeout=90s",
  ]).catch((error: unknown) => say(`could not delete every VMI before stopping: ${String(error)}`));
}

async function stopAll(): Promise<void> {
  stopping ??= (async () => {
    say("stopping");
    for (const part of started.reverse()) {
      await part
        .stop()
        .catch((error: unknown) =>
          say(`while stopping: ${error instanceof Error ? error.message : String(error)}`),
        );
    }
  })();
  return stopping;
}

process.on("SIGINT", () => void stopAll().then(() => process.exit(0)));
process.on("SIGTERM", () => void stopAll().then(() => process.exit(0)));

try {
  const daemons = await up();
  say("kubevirt-ts is running on real Kubernetes 1.20. Try:");
  say(`  export KUBECONFIG=${kubeconfig}`);
  say("  kubectl apply -f examples/vm-tiny.yaml && kubectl get vm,vmi -w");
  say("  npx virtctl console vm-tiny   # through the real API server's aggregation; Ctrl+] leaves it");
  say(`logs: ${paths.logs}; Ctrl+C stops the cluster`);
  await writeFile(readyFile, `${new Date().toISOString()}\n`);
  // A daemon that dies takes the cluster down with a reason, rather than leaving half a node.
  await Promise.race(daemons.map((daemon) => daemon.unexpectedExit));
} catch (error) {
  process.stderr.write(`real-kubernetes: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof Error && error.cause) process.stderr.write(`  cause: ${String(error.cause)}\n`);
  await stopAll();
  process.exit(1);
}
