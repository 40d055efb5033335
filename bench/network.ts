/**
 * `npm run bench -- network`: what the pod network costs a VM, beside what it costs a pod, on one
 * node in one run (the machine is shared and the guest is emulated, so the ratios are the figures):
 * - TCP throughput pod→pod, pod→VM and VM→pod: one connection, zeros, measured by whichever side
 *   can tell when the last byte arrived (`test/programs/tcp-bench.ts` in the pods' namespaces,
 *   busybox `nc` and `dd` in the guest, which reaches the pod through its masquerade binding);
 * - TCP connect latency pod→pod and pod→VM, p50/p99 over 50 sequential connects;
 * - the time from creating a VM to the first HTTP answer from its guest at its pod's IP.
 * Pods are virt-api's and virt-controller's, whose network namespaces the node agent made; the
 * measuring programs run in them with `ip netns exec`, as the pods' containers do.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { request } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { defineKind, type KubeObject } from "../runtime/index.js";
import { guestShell } from "../test/e2e/testing/guest-shell.js";
import type { Pod } from "../test/e2e/testing/kinds.js";
import { podKind, vmKind } from "../test/e2e/testing/kinds.js";
import type { KubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import type { GuestConsole, RunDomains } from "../test/e2e/testing/run-domains.js";
import { RunObjects } from "../test/e2e/testing/run-objects.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { type Metric, percentile } from "./bench-report.js";
import { runVmBenchmark } from "./vm-bench-run.js";

const VM = "net-bench";
const BOOT_MS = 180_000;
const SINK_PORT = 15001;
const GUEST_SINK_PORT = 15002;
/** A pod moves this much per round; an emulated guest far less, so that a round stays short. */
const POD_BYTES = 256 * 1024 * 1024;
const VM_BYTES = 16 * 1024 * 1024;
const ROUNDS = 3;
const CONNECTS = 50;

const namespaceKind = defineKind<KubeObject>({
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
});

interface Transfer {
  bytes: number;
  seconds: number;
}

const tcpBench = (stack: KubevirtStack) => join(stack.repoRoot, "dist", "test", "programs", "tcp-bench.js");

/** Runs tcp-bench in a pod's namespace to its end and parses its one line. */
function runInPod<T>(stack: KubevirtStack, netns: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      "ip",
      ["netns", "exec", netns, process.execPath, tcpBench(stack), ...args],
      { timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`tcp-bench ${args.join(" ")} failed: ${stderr.trim()}`, { cause: error }));
        else resolve(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as T);
      },
    );
  });
}

/** A tcp-bench sink in a pod, whose per-connection reports are read one at a time. */
class PodSink {
  readonly #child: ChildProcess;
  readonly #lines: string[] = [];
  #waiters: (() => void)[] = [];

  private constructor(child: ChildProcess) {
    this.#child = child;
    const lines = createInterface({ input: child.stdout ?? process.stdin });
    lines.on("line", (line) => {
      this.#lines.push(line);
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  static async start(stack: KubevirtStack, netns: string, expectedBytes: number): Promise<PodSink> {
    const child = spawn(
      "ip",
      [
        "netns",
        "exec",
        netns,
        process.execPath,
        tcpBench(stack),
        "sink",
        String(SINK_PORT),
        String(expectedBytes),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const sink = new PodSink(child);
    await sink.next();
    return sink;
  }

  /** The next line the sink prints (its "listening" line first, then one per connection). */
  async next(timeoutMs = 300_000): Promise<Record<string, number>> {
    const deadline = Date.now() + timeoutMs;
    while (this.#lines.length === 0) {
      if (Date.now() > deadline) throw new Error("the sink reported nothing");
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 1000);
      });
    }
    return JSON.parse(this.#lines.shift() ?? "{}") as Record<string, number>;
  }

  stop(): void {
    this.#child.kill("SIGKILL");
  }
}

function httpBody(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: "/", timeout: 1000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks).toString()));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

const mbits = (transfer: Transfer): number => (transfer.bytes * 8) / transfer.seconds / 1e6;
const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function measure(stack: KubevirtStack, domains: RunDomains): Promise<Record<string, Metric>> {
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const namespace = domains.namespace;
  const objects = new RunObjects(stack.client, namespace);
  await stack.client
    .resource(namespaceKind)
    .create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });

  // Creation to first answer: the VM's status is read as often as the guest is asked.
  const created = Date.now();
  await stack.client.resource(vmKind).create(tinyVm(stack.repoRoot, { name: VM, namespace }));
  const vmIP = await pollUntil(
    "the launcher pod's IP",
    async () => (await objects.launcherPods(VM))[0]?.status?.podIP,
    { timeoutMs: BOOT_MS, intervalMs: 50 },
  );
  await pollUntil(
    "the guest's first HTTP answer",
    async () => ((await httpBody(vmIP, 80)) ? true : undefined),
    {
      timeoutMs: BOOT_MS,
      intervalMs: 50,
    },
  );
  const firstAnswerMs = Date.now() - created;

  const guest = await domains.attachConsole(domains.domainName(VM), { timeoutMs: BOOT_MS });
  try {
    await guest.transcript.waitFor(TEST_GUEST_BANNER, BOOT_MS).catch(() => undefined);
    await guestShell(guest, "true");
    const pods = await systemPods(stack);
    const [server, client] = pods;
    const serverNetns = `${stack.bridge}-${server.metadata?.uid}`;
    const clientNetns = `${stack.bridge}-${client.metadata?.uid}`;
    const serverIP = server.status?.podIP ?? "";

    const podToPod: number[] = [];
    const sink = await PodSink.start(stack, serverNetns, Number.POSITIVE_INFINITY);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const sent = await runInPod<Transfer>(stack, clientNetns, [
          "send",
          serverIP,
          String(SINK_PORT),
          String(POD_BYTES),
        ]);
        podToPod.push(mbits(sent));
        await sink.next();
      }
    } finally {
      sink.stop();
    }
    const vmToPod: number[] = [];
    const vmSink = await PodSink.start(stack, serverNetns, VM_BYTES);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const count = VM_BYTES / 65536;
        void guestShell(
          guest,
          `dd if=/dev/zero bs=65536 count=${count} 2>/dev/null | nc -w 5 ${serverIP} ${SINK_PORT}`,
          300_000,
        );
        const received = (await vmSink.next()) as unknown as Transfer;
        vmToPod.push(mbits(received));
        await waitForPrompt(guest);
      }
    } finally {
      vmSink.stop();
    }
    const podToVm: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // nc's stdin must stay open (a background job's is /dev/null, whose end would make nc hang
      // up at once); wc says what arrived once the sender closed.
      await guestShell(
        guest,
        `rm -f /run/received; (sleep 600 | nc -l -p ${GUEST_SINK_PORT} | wc -c > /run/received &)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = await runInPod<Transfer>(stack, clientNetns, [
        "send",
        vmIP,
        String(GUEST_SINK_PORT),
        String(VM_BYTES),
      ]);
      const received = await pollUntil("the guest to count what it received", async () => {
        const out = await guestShell(guest, "cat /run/received 2>/dev/null");
        const count = /\n(\d+)\r?\n/.exec(out)?.[1];
        return count === undefined ? undefined : Number(count);
      });
      if (received !== VM_BYTES) throw new Error(`the guest received ${received} bytes of ${VM_BYTES}`);
      podToVm.push(mbits(sent));
    }

    const connectSink = await PodSink.start(stack, serverNetns, Number.POSITIVE_INFINITY);
    let podConnects: number[];
    let vmConnects: number[];
    try {
      podConnects = (
        await runInPod<{ millis: number[] }>(stack, clientNetns, [
          "connect",
          serverIP,
          String(SINK_PORT),
          String(CONNECTS),
        ])
      ).millis;
      vmConnects = (
        await runInPod<{ millis: number[] }>(stack, clientNetns, ["connect", vmIP, "80", String(CONNECTS)])
      ).millis;
    } finally {
      connectSink.stop();
    }
    const sortedPod = [...podConnects].sort((a, b) => a - b);
    const sortedVm = [...vmConnects].sort((a, b) => a - b);
    const podRate = median(podToPod);
    return {
      vm_create_to_first_http_answer: { value: firstAnswerMs, unit: "ms" },
      tcp_throughput_pod_to_pod: { value: podRate, unit: "Mbit/s" },
      tcp_throughput_pod_to_vm: { value: median(podToVm), unit: "Mbit/s" },
      tcp_throughput_vm_to_pod: { value: median(vmToPod), unit: "Mbit/s" },
      tcp_throughput_pod_to_vm_vs_pod: { value: (100 * median(podToVm)) / podRate, unit: "% of pod to pod" },
      tcp_throughput_vm_to_pod_vs_pod: { value: (100 * median(vmToPod)) / podRate, unit: "% of pod to pod" },
      tcp_connect_pod_to_pod_p50: { value: percentile(sortedPod, 50), unit: "ms" },
      tcp_connect_pod_to_pod_p99: { value: percentile(sortedPod, 99), unit: "ms" },
      tcp_connect_pod_to_vm_p50: { value: percentile(sortedVm, 50), unit: "ms" },
      tcp_connect_pod_to_vm_p99: { value: percentile(sortedVm, 99), unit: "ms" },
      tcp_connect_pod_to_vm_vs_pod_p50: {
        value: percentile(sortedVm, 50) / percentile(sortedPod, 50),
        unit: "times pod to pod",
      },
      load_average_at_start: { value: loadAtStart, unit: "1-min load" },
    };
  } finally {
    guest.close();
  }
}

/** Two pods of the stack on the pod network (virt-api and virt-controller). */
async function systemPods(stack: KubevirtStack): Promise<[Pod, Pod]> {
  const { items } = await stack.client.resource(podKind).list({ namespace: "kubevirt" });
  const running = items.filter(
    (pod) => pod.status?.phase === "Running" && pod.status.podIP && !pod.spec?.hostNetwork,
  );
  const [first, second] = running;
  if (!first || !second) throw new Error("two pods of the stack on the pod network are needed");
  return [first, second];
}

/** The guest's shell is back once an empty command's marker comes back. */
async function waitForPrompt(guest: GuestConsole): Promise<void> {
  await guestShell(guest, "true", 300_000);
}

await runVmBenchmark({ name: "network", tag: "netb", vm: VM }, measure);
