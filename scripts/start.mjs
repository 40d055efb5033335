#!/usr/bin/env node
// `npm start`: brings up the dev cluster with kubevirt-ts running on it. Until virt-operator
// exists, this script does its job: it applies the CRDs, creates the KubeVirt CR (with
// useEmulation when KVM does not work) and runs virt-controller and virt-handler as pods of the
// dev cluster (a Deployment and a DaemonSet whose images the node agent maps to our programs).
// Flags are those of `dev-cluster up`; Ctrl+C stops everything.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
/** A flag's value, as `--name value` or `--name=value` (as commander accepts them). */
const flag = (name, fallback) => {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const dataDir = resolve(flag("--data-dir", ".local/dev-cluster"));
const kubeconfig = resolve(flag("--kubeconfig", ".local/kubeconfig"));
const nodeName = flag("--node-name", hostname().toLowerCase());
const imageStore = resolve(root, ".local/images");

function log(message) {
  process.stdout.write(`start: ${message}\n`);
}

/**
 * KVM counts only when virt-handler's own detection says so (a real kernel boots under it): on
 * these machines /dev/kvm exists but cannot run ordinary guests. The CR must agree with what the
 * handler advertises, or launcher pods would wait for a KVM device no node offers.
 */
async function kvmWorks() {
  const { detectKvm } = await import(join(root, "dist", "virt-handler", "node", "kvm-detection.js"));
  const { kvmBootProbe } = await import(join(root, "dist", "virt-handler", "node", "kvm-boot-probe.js"));
  const status = await detectKvm({ bootProbe: () => kvmBootProbe() });
  return status.usable;
}

function kubectl(kubectlArgs, input) {
  return execFileSync("kubectl", ["--kubeconfig", kubeconfig, ...kubectlArgs], {
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "inherit"],
  });
}

const node = process.execPath;
const imageMap = {
  images: {
    "virt-launcher": { command: ["sleep", "infinity"] },
    "kubevirt-ts/virt-controller": { command: [node, join(root, "dist", "virt-controller", "main.js")] },
    "kubevirt-ts/virt-handler": { command: [node, join(root, "dist", "virt-handler", "main.js")] },
  },
};

function manifests(useEmulation) {
  return [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: "kubevirt" } },
    {
      apiVersion: "kubevirt.io/v1",
      kind: "KubeVirt",
      metadata: { name: "kubevirt", namespace: "kubevirt" },
      spec: { configuration: { developerConfiguration: { useEmulation } } },
    },
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {
        name: "virt-controller",
        namespace: "kubevirt",
        labels: { "kubevirt.io": "virt-controller" },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { "kubevirt.io": "virt-controller" } },
        template: {
          metadata: { labels: { "kubevirt.io": "virt-controller" } },
          spec: {
            nodeSelector: { "kubernetes.io/hostname": nodeName },
            containers: [
              {
                name: "virt-controller",
                image: "kubevirt-ts/virt-controller:dev",
                args: ["--namespace", "kubevirt"],
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      metadata: { name: "virt-handler", namespace: "kubevirt", labels: { "kubevirt.io": "virt-handler" } },
      spec: {
        selector: { matchLabels: { "kubevirt.io": "virt-handler" } },
        template: {
          metadata: { labels: { "kubevirt.io": "virt-handler" } },
          spec: {
            // Simulated nodes have no libvirt: the handler runs where VMs can.
            nodeSelector: { "kubernetes.io/hostname": nodeName },
            containers: [
              {
                name: "virt-handler",
                image: "kubevirt-ts/virt-handler:dev",
                args: [
                  "--namespace",
                  "kubevirt",
                  "--image-store",
                  imageStore,
                  "--state-dir",
                  join(dataDir, "virt-handler"),
                ],
                env: [
                  { name: "NODE_NAME", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } },
                  { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
                  // libvirt's event pump holds one libuv thread for good: give the pool more.
                  { name: "UV_THREADPOOL_SIZE", value: "8" },
                ],
              },
            ],
          },
        },
      },
    },
  ];
}

async function waitFor(what, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

mkdirSync(dataDir, { recursive: true });
log("building the test guest image (cached) into .local/images");
execFileSync(node, [join(root, "dist", "test", "guest", "main.js"), "--store", imageStore], {
  stdio: "inherit",
});
const imageMapPath = join(dataDir, "image-map.json");
writeFileSync(imageMapPath, `${JSON.stringify(imageMap, null, 2)}\n`);
rmSync(kubeconfig, { force: true });

// The cluster gets its own process group: a terminal's Ctrl+C reaches this script only, which
// forwards it once, so the cluster's shutdown is never cut short by a second signal.
const cluster = spawn(
  node,
  [join(root, "dist", "dev-cluster", "main.js"), "up", ...args, "--image-map", imageMapPath],
  {
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  },
);
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  cluster.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
cluster.on("exit", (code) => process.exit(code ?? 1));

try {
  await waitFor("the dev cluster's kubeconfig", () => existsSync(kubeconfig));
  const crds = readdirSync(join(root, "crds")).map((file) => join(root, "crds", file));
  kubectl(["apply", "--server-side", ...crds.flatMap((file) => ["-f", file])]);
  kubectl(["wait", "--for=condition=established", "crd", "--all", "--timeout=60s"]);
  const useEmulation = !(await kvmWorks());
  kubectl(
    ["apply", "-f", "-"],
    manifests(useEmulation)
      .map((m) => JSON.stringify(m))
      .join("\n"),
  );
  log(`kubevirt-ts is starting (${useEmulation ? "no usable KVM: VMs run under emulation" : "KVM"}):`);
  log(`  export KUBECONFIG=${kubeconfig}`);
  log("  kubectl -n kubevirt rollout status deployment/virt-controller");
  log("  kubectl apply -f examples/vm-tiny.yaml && kubectl get vm,vmi -w");
} catch (error) {
  // Never leave a half-started cluster holding the port and the store.
  process.stderr.write(
    `start: ${error instanceof Error ? error.message : String(error)}; stopping the dev cluster\n`,
  );
  stop("SIGTERM");
}
