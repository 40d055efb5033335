#!/usr/bin/env node
// `npm start`: brings up the dev cluster and installs kubevirt-ts on it as a user installs
// KubeVirt: `kubectl apply` of deploy/kubevirt-operator.yaml and deploy/kubevirt-cr.yaml (plus
// useEmulation when KVM does not work, and the HotplugVolumes gate), then it waits for the
// KubeVirt CR to be Available.
// virt-operator, and what it installs, run as pods of the dev cluster whose images the node agent
// maps to our programs. On the same data dir a second run resumes. Flags are those of
// `dev-cluster up`; Ctrl+C stops everything.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ownFlags = new Set(["--no-cloud-guest", "--real-kubernetes"]);
/** `dev-cluster up`'s flags; --no-cloud-guest is this script's own (the e2e stacks pass it). */
const args = process.argv.slice(2).filter((arg) => !ownFlags.has(arg));
const withCloudGuest = !process.argv.includes("--no-cloud-guest");
/** A flag's value, as `--name value` or `--name=value` (as commander accepts them). */
const flag = (name, fallback) => {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const dataDir = resolve(flag("--data-dir", ".local/dev-cluster"));
const kubeconfig = resolve(flag("--kubeconfig", ".local/kubeconfig"));
const imageStore = resolve(root, ".local/images");

/** Feature gates the dev stack enables on the KubeVirt CR (deploy/kubevirt-cr.yaml, like KubeVirt's, enables none). */
const DEV_FEATURE_GATES = ["HotplugVolumes"];

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

/**
 * `npm start -- --real-kubernetes [flags of dist/real-kubernetes/main.js]`: the same install on a
 * single-node real Kubernetes (real-kubernetes/README.md) instead of the dev cluster.
 */
if (process.argv.includes("--real-kubernetes")) {
  const useEmulation = !(await kvmWorks());
  const cluster = spawn(
    process.execPath,
    [join(root, "dist", "real-kubernetes", "main.js"), ...args, ...(useEmulation ? ["--use-emulation"] : [])],
    { stdio: "inherit", detached: true },
  );
  // Its own process group, as the dev cluster's: one forwarded signal, one orderly teardown.
  const forward = (signal) => cluster.kill(signal);
  process.on("SIGINT", () => forward("SIGINT"));
  process.on("SIGTERM", () => forward("SIGTERM"));
  cluster.on("exit", (code) => process.exit(code ?? 1));
  await new Promise(() => {});
}

function kubectl(kubectlArgs, input) {
  return execFileSync("kubectl", ["--kubeconfig", kubeconfig, ...kubectlArgs], {
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "inherit"],
  });
}

const node = process.execPath;
/**
 * The dev cluster's "container images": the node agent runs our programs for our images' names
 * (whatever registry and tag the manifests give). virt-handler's image says where this node keeps
 * VM state and the local containerDisk images, as a real image's environment would.
 */
const imageMap = {
  images: {
    "virt-launcher": { command: ["/bin/sh", join(root, "images", "virt-launcher.sh")] },
    "virt-operator": { command: [node, join(root, "dist", "virt-operator", "main.js")] },
    "virt-controller": { command: [node, join(root, "dist", "virt-controller", "main.js")] },
    "virt-api": { command: [node, join(root, "dist", "virt-api", "main.js")] },
    "virt-handler": {
      command: [node, join(root, "dist", "virt-handler", "main.js")],
      // Pulled containerDisks are cached in the data dir; the dev cluster's registry writes the
      // node's mirror configuration (hosts.toml) there too.
      env: {
        VIRT_HANDLER_STATE_DIR: join(dataDir, "virt-handler"),
        VIRT_HANDLER_IMAGE_STORE: imageStore,
        VIRT_HANDLER_IMAGE_CACHE: join(dataDir, "image-cache"),
        VIRT_HANDLER_REGISTRY_HOSTS: join(dataDir, "registry-hosts"),
      },
    },
    // CDI's importer (DataVolumes): a registry source is pulled through the node's mirror
    // configuration, as virt-handler's pulls are.
    "cdi-importer": {
      command: [node, join(root, "dist", "cdi-importer", "main.js")],
      env: { IMPORTER_REGISTRY_HOSTS: join(dataDir, "registry-hosts") },
    },
  },
};

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
// The same for the registry's address: after a kill -9 the last run's file names a registry that is
// going away, and the guests pushed there would be lost (the new registry picks its own port).
rmSync(join(dataDir, "registry", "address"), { force: true });

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

/**
 * The test guests go to the dev cluster's registry (its address file appears once it answers), as a
 * user would push them: localhost:5000/kubevirt-ts/test-guest:latest, and the stand-ins for KubeVirt's
 * demo images, which the nodes' mirrors (and CDI's importer) serve for
 * quay.io/kubevirt/cirros-container-disk-demo and registry:5000/kubevirt/alpine-container-disk-demo:devel.
 */
function registryAddress() {
  return readFileSync(join(dataDir, "registry", "address"), "utf8").trim();
}

async function publishGuests() {
  await waitFor("the dev cluster's registry", () => existsSync(join(dataDir, "registry", "address")));
  const address = registryAddress();
  log(`pushing the test guests to the registry at ${address}`);
  execFileSync(
    node,
    [join(root, "dist", "test", "guest", "main.js"), "--store", imageStore, "--registry", address],
    {
      stdio: "inherit",
    },
  );
}

try {
  await waitFor("the dev cluster's kubeconfig", () => existsSync(kubeconfig));
  if (!args.includes("--no-registry")) await publishGuests();
  // As a user installs KubeVirt: the operator bundle, then the KubeVirt CR.
  kubectl(["apply", "-f", join(root, "deploy", "kubevirt-operator.yaml")]);
  kubectl(["wait", "--for=condition=established", "crd/kubevirts.kubevirt.io", "--timeout=60s"]);
  kubectl(["apply", "-f", join(root, "deploy", "kubevirt-cr.yaml")]);
  const useEmulation = !(await kvmWorks());
  const developer = JSON.parse(
    kubectl([
      ...["-n", "kubevirt", "get", "kubevirt", "kubevirt"],
      ...["-o", "jsonpath={.spec.configuration.developerConfiguration}"],
    ]).trim() || "{}",
  );
  const change = {};
  // KubeVirt's documented switch for nodes without usable KVM.
  if (useEmulation && developer.useEmulation !== true) change.useEmulation = true;
  // The dev stack turns on what a KubeVirt user enables for `virtctl addvolume`; the gates the CR
  // already lists stay.
  const gates = developer.featureGates ?? [];
  const missingGates = DEV_FEATURE_GATES.filter((gate) => !gates.includes(gate));
  if (missingGates.length > 0) change.featureGates = [...gates, ...missingGates];
  // Only a change is written: on a resumed cluster the CR is already as it should be.
  if (Object.keys(change).length > 0) {
    const patch = { spec: { configuration: { developerConfiguration: change } } };
    kubectl(["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge", "-p", JSON.stringify(patch)]);
  }
  log(
    `waiting for virt-operator to install kubevirt-ts (${useEmulation ? "no usable KVM: VMs run under emulation" : "KVM"})`,
  );
  kubectl(["-n", "kubevirt", "wait", "kv", "kubevirt", "--for", "condition=Available", "--timeout=300s"]);
  // The Debian guest last: building it the first time takes a minute or two (debootstrap).
  if (withCloudGuest && !args.includes("--no-registry")) {
    log("building (cached) and pushing the Debian 12 guest as localhost:5000/kubevirt-ts/debian:12");
    try {
      execFileSync(
        node,
        [join(root, "dist", "test", "cloud-guest", "main.js"), "--registry", registryAddress()],
        { stdio: "inherit" },
      );
    } catch {
      // Its build needs Debian's mirror; the cluster and the other images are fine without it.
      log(
        "the Debian guest could not be built or pushed (its error is above): examples/vm-debian.yaml will not pull",
      );
    }
  }
  log("kubevirt-ts is available. Try:");
  log(`  export KUBECONFIG=${kubeconfig}`);
  log("  kubectl apply -f examples/vm-tiny.yaml && kubectl get vm,vmi -w");
  log("  npx virtctl console vm-tiny   # its serial console; Ctrl+] leaves it");
  if (withCloudGuest)
    log("  kubectl apply -f examples/vm-debian.yaml   # Debian 12 with cloud-init and the guest agent");
  log(
    "  kubectl apply -f https://raw.githubusercontent.com/kubevirt/kubevirt/main/examples/vm-alpine-datavolume.yaml" +
      " && npx virtctl start vm-alpine-datavolume   # KubeVirt's own example, as it is",
  );
} catch (error) {
  // Never leave a half-started cluster holding the port and the store.
  process.stderr.write(
    `start: ${error instanceof Error ? error.message : String(error)}; stopping the dev cluster\n`,
  );
  stop("SIGTERM");
}
