// One `npm start` stack (scripts/start.mjs: the dev cluster, the operator bundle and the KubeVirt
// CR, and what virt-operator installs from it, as pods) as a child process, with names of its own so that it
// never meets another dev cluster on this machine: node name, bridge, pod CIDR and data dir.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, createWriteStream, existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";
import { KubeClient } from "../../../runtime/index.js";
import { localIpv4Addresses } from "../../dev-cluster/testing/host-resources.js";
import { conditionOf, kubevirtKind, nodeKind, type Pod, podKind } from "./kinds.js";
import { removeNodeLeftovers } from "./node-processes.js";
import { pollUntil } from "./poll.js";

export interface StackExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface KubevirtStack {
  /** start.mjs (the dev cluster is its child; SIGTERM to start.mjs stops both). */
  readonly pid: number;
  readonly repoRoot: string;
  readonly dataDir: string;
  readonly kubeconfig: string;
  readonly nodeName: string;
  readonly bridge: string;
  readonly podCidr: string;
  /** The stack's ClusterIP range: its own, so that the node's Service rules of two stacks never overlap. */
  readonly serviceCidr: string;
  readonly client: KubeClient;
  /** host:port of the dev cluster's image registry (dev-cluster/registry/). */
  readonly registryAddress: string;
  readonly exited: Promise<StackExit>;
  running(): boolean;
  /** The last lines start.mjs and the dev cluster printed, for failure messages. */
  tail(lines?: number): string;
}

/** The repository: the nearest directory above this module holding scripts/start.mjs (dist/ or a private build). */
export function findRepoRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, "scripts", "start.mjs")) || !existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no scripts/start.mjs in any directory above ${from}`);
    dir = parent;
  }
  return dir;
}

/** A /24 of 10.251.0.0/16 that no interface of this machine uses (10.250/16 is the dev-cluster test's). */
function unusedPodCidr(): string {
  const used = new Set(localIpv4Addresses().map((address) => address.split(".").slice(0, 3).join(".")));
  const start = randomBytes(1)[0] ?? 0;
  for (let step = 0; step < 256; step++) {
    const prefix = `10.251.${(start + step) % 256}`;
    if (!used.has(prefix)) return `${prefix}.0/24`;
  }
  throw new Error("every /24 of 10.251.0.0/16 is in use on this machine");
}

/** Names no other run on this machine uses; `tag` (a few letters) says whose they are. */
function uniqueNames(workDir: string, tag: string) {
  const suffix = randomBytes(4).toString("hex");
  const podCidr = unusedPodCidr();
  return {
    dataDir: join(workDir, "data"),
    kubeconfig: join(workDir, "kubeconfig"),
    nodeName: `${tag}-node-${suffix}`,
    bridge: `kv${tag.slice(0, 4)}${suffix}`, // at most 14 characters: Linux allows 15
    podCidr,
    serviceCidr: podCidr.replace(/^10\.251\./, "10.252."),
  };
}

interface StartedProcess {
  child: ChildProcess;
  exited: Promise<StackExit>;
  recent: string[];
}

function spawnStartScript(repoRoot: string, args: string[], logPath: string): StartedProcess {
  const child = spawn(process.execPath, [join(repoRoot, "scripts", "start.mjs"), ...args], {
    cwd: repoRoot,
    detached: true, // a process group of its own: cleanup can end it and the dev cluster together
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(logPath, { flags: "a" });
  const recent: string[] = [];
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    recent.push(...chunk.toString("utf8").trimEnd().split("\n"));
    if (recent.length > 200) recent.splice(0, recent.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<StackExit>((resolve) => {
    child.once("exit", (code, signal) => {
      log.end();
      resolve({ code, signal });
    });
  });
  return { child, exited, recent };
}

/**
 * Starts the stack and resolves once the virt-controller and virt-handler pods run and the node
 * is schedulable for VMs (virt-handler labels it once libvirt answers).
 */
export async function startKubevirtStack(
  workDir: string,
  options: {
    tag: string;
    timeoutMs?: number;
    /** The names of a stack that ended (killed, say): start it again on its data dir, as its node. */
    again?: Pick<KubevirtStack, "dataDir" | "kubeconfig" | "nodeName" | "bridge" | "podCidr" | "serviceCidr">;
  },
): Promise<KubevirtStack> {
  const repoRoot = findRepoRoot();
  const names = options.again
    ? (({ dataDir, kubeconfig, nodeName, bridge, podCidr, serviceCidr }) => ({
        ...{ dataDir, kubeconfig, nodeName, bridge, podCidr, serviceCidr },
      }))(options.again)
    : uniqueNames(workDir, options.tag);
  // A VM's passt runs unprivileged and must reach its socket in virt-handler's state directory,
  // below this one (mkdtemp makes it 0700).
  chmodSync(workDir, 0o755);
  const args = [
    ...["--data-dir", names.dataDir, "--port", "0", "--kubeconfig", names.kubeconfig],
    ...["--node-name", names.nodeName, "--bridge-name", names.bridge, "--pod-cidr", names.podCidr],
    ...["--service-cidr", names.serviceCidr],
    // Stacks run several at once: each dev cluster's registry on a free port of its own.
    ...["--registry-address", "127.0.0.1:0"],
    // The Debian guest is pushed by the tests that boot it, not by every stack.
    "--no-cloud-guest",
  ];
  // Started again: the old kubeconfig names the old port, and must not pass for the new one.
  if (options.again) rmSync(names.kubeconfig, { force: true });
  const started = spawnStartScript(repoRoot, args, join(workDir, "start.log"));
  const pid = started.child.pid;
  if (pid === undefined) throw new Error("cannot start scripts/start.mjs");
  let over = false;
  void started.exited.then(() => {
    over = true;
  });
  const tail = (lines = 20) => started.recent.slice(-lines).join("\n");
  const stack = { pid, repoRoot, ...names, exited: started.exited, running: () => !over, tail };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const timeoutMs = () => Math.max(0, deadline - Date.now());
  let client: KubeClient | undefined;
  try {
    const kubeconfigWritten = () => stopIfOver(stack, existsSync(names.kubeconfig));
    await pollUntil("start.mjs to write the kubeconfig", kubeconfigWritten, { timeoutMs: timeoutMs() });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(names.kubeconfig);
    client = KubeClient.fromKubeConfig(kubeConfig, { fieldManager: `kubevirt-ts-${options.tag}` });
    await waitForComponents({ ...stack, client }, timeoutMs);
    // start.mjs removes the last run's address file before the cluster starts (after a kill -9 it
    // names a registry that is going away), so the file that appears is this run's registry's.
    const addressFile = join(names.dataDir, "registry", "address");
    await pollUntil("the dev cluster's registry address", () => stopIfOver(stack, existsSync(addressFile)), {
      timeoutMs: timeoutMs(),
    });
    const registryAddress = readFileSync(addressFile, "utf8").trim();
    return { ...stack, client, registryAddress };
  } catch (error) {
    client?.close();
    // Nobody gets a stack to stop: end it here, with what its node started.
    if (!over) process.kill(pid, "SIGTERM");
    await Promise.race([started.exited, sleep(15_000)]);
    killProcessGroup(pid);
    removeNodeLeftovers(names);
    throw new Error(`the kubevirt-ts stack did not come up; its output:\n${tail(40)}`, { cause: error });
  }
}

function stopIfOver(stack: { running(): boolean }, result: boolean): true | undefined {
  if (!stack.running()) throw new Error("scripts/start.mjs exited");
  return result ? true : undefined;
}

async function waitForComponents(
  stack: Omit<KubevirtStack, "client" | "registryAddress"> & { client: KubeClient },
  timeoutMs: () => number,
) {
  const pods = stack.client.resource(podKind);
  const isRunning = (pod: Pod) => pod.status?.phase === "Running";
  for (const component of ["virt-controller", "virt-handler"]) {
    await pollUntil(
      `the ${component} pod to run`,
      async () => {
        const found = await pods.list({ namespace: "kubevirt", labelSelector: `kubevirt.io=${component}` });
        return stopIfOver(stack, found.items.some(isRunning));
      },
      { timeoutMs: timeoutMs(), intervalMs: 250 },
    );
  }
  // What start.mjs waits for too: until then virt-api's webhooks refuse VM writes.
  await pollUntil(
    "the KubeVirt CR to be Available",
    async () => {
      const kubevirt = await stack.client
        .resource(kubevirtKind)
        .get({ namespace: "kubevirt", name: "kubevirt" })
        .catch(() => undefined);
      return stopIfOver(stack, conditionOf(kubevirt?.status?.conditions, "Available")?.status === "True");
    },
    { timeoutMs: timeoutMs(), intervalMs: 250 },
  );
  await pollUntil(
    "virt-handler to mark the node schedulable",
    async () => {
      const node = await stack.client
        .resource(nodeKind)
        .get({ name: stack.nodeName })
        .catch(() => undefined);
      return stopIfOver(stack, node?.metadata?.labels?.["kubevirt.io/schedulable"] === "true");
    },
    { timeoutMs: timeoutMs(), intervalMs: 250 },
  );
}

/**
 * Stops the stack as a user does (SIGTERM to `npm start`: the dev cluster stops its pods), then
 * ends whatever is left of its process group. Returns how start.mjs ended, or undefined when it
 * had to be killed.
 */
export async function stopKubevirtStack(
  stack: KubevirtStack,
  timeoutMs = 30_000,
): Promise<StackExit | undefined> {
  stack.client.close();
  if (!stack.running()) return stack.exited;
  process.kill(stack.pid, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  const exit = await Promise.race([stack.exited, late]);
  clearTimeout(timer);
  killProcessGroup(stack.pid);
  return exit;
}

export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}
