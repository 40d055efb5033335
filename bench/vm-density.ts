/**
 * `npm run bench -- vm-density`: KubeVirt's density test, scaled to this machine. `npm start`'s
 * stack (scripts/start.mjs, as the end-to-end test runs it: the operator-installed components)
 * gets 20 VMs of the test guest (examples/vm-tiny.yaml, 128 MiB, TCG) created 100 ms apart. The
 * node's 2 CPUs fit them the way a KubeVirt user makes them fit: the KubeVirt CR's
 * `developerConfiguration.cpuAllocationRatio` (20 vCPUs a CPU: 50m a launcher pod). A launcher
 * pod that still fits no node ends the run at once with the scheduler's message. It measures:
 * - creation → Running, p50 and p95: from each VMI's creation (its ADDED watch event) to the first
 *   event showing it Running (this host's clock, ms); also from the VM's create request, and from
 *   the API's own timestamps (creationTimestamp → the Running phaseTransitionTimestamp, which carry
 *   whole seconds), KubeVirt's `phase_transition_time_from_creation` figure;
 * - time from the VM's create request to the guest's banner on its console, for the first three;
 * - VMI writes (MODIFIED events) from creation to Running, per VMI and per launcher pod created;
 * - resident memory of a launcher pod's process (`sleep`), of QEMU per 128 MiB guest, and of
 *   virt-handler and virt-controller.
 * - as a baseline, creation → Running of one VM alone on the idle node, twice before the twenty
 *   (the first pulls the image, the second finds it cached), each with its breakdown;
 * - where the time goes (vm-density-breakdown.ts): per phase, from the watches' milestones and
 *   virt-handler's trace of each start (its steps and every program they ran), p50/p95/max.
 * Targets: p50 < 1 s, p95 < 2 s, ≤ 3 VMI writes per VMI. Twenty TCG guests booting on two cores
 * slow everything else down: the figures include that load, as a density test's would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { defineKind, type KubeObject } from "../runtime/index.js";
import { LAUNCHER_SELECTOR, phaseEnteredAt, podKind, vmKind } from "../test/e2e/testing/kinds.js";
import {
  type KubevirtStack,
  startKubevirtStack,
  stopKubevirtStack,
} from "../test/e2e/testing/kubevirt-stack.js";
import {
  componentPids,
  launcherPid,
  removeNodeLeftovers,
  residentBytes,
} from "../test/e2e/testing/node-processes.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { RunDomains } from "../test/e2e/testing/run-domains.js";
import { createVmBurst, setCpuAllocationRatio, waitForBurst } from "../test/e2e/testing/vm-burst.js";
import { VmBurstRecorder } from "../test/e2e/testing/vm-burst-recorder.js";
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { type Metric, percentile, reportBenchmark } from "./bench-report.js";
import { cpuSnapshot, cpuSpent } from "./cpu-accounting.js";
import { type Breakdown, breakdownMetrics, breakdownOf, formatBreakdown } from "./vm-density-breakdown.js";
import { handlerStarts } from "./vm-density-handler-log.js";
import { podStarts } from "./vm-density-node-agent-log.js";

const VMS = 20;
const CREATE_INTERVAL_MS = 100;
/** vCPUs a node CPU: 1-vCPU launcher pods ask for 50m, so twenty take half the node. */
const CPU_ALLOCATION_RATIO = 20;
const EXPECTED_LAUNCHER_CPU = "50m";
const BANNER_SAMPLE = 3;
const RUNNING_TIMEOUT_MS = 300_000;
const BANNER_TIMEOUT_MS = 300_000;
const MiB = 1024 * 1024;

const namespaceKind = defineKind<KubeObject>({
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
});

/** When the guest printed its banner (epoch ms), watched on its console from the moment its domain runs. */
async function bannerTime(domains: RunDomains, vmName: string): Promise<number> {
  const console = await domains.attachConsole(domains.domainName(vmName), { timeoutMs: RUNNING_TIMEOUT_MS });
  try {
    await console.transcript.waitFor(TEST_GUEST_BANNER, BANNER_TIMEOUT_MS);
    return Date.now();
  } finally {
    console.close();
  }
}

const seconds = (ms: number) => ms / 1000;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 50);

function latencyMetrics(recorder: VmBurstRecorder, sentAt: Map<string, number>): Record<string, Metric> {
  const records = [...recorder.vmis.entries()];
  const fromVmi = sorted(records.map(([, r]) => (r.runningSeenAt ?? Number.NaN) - r.addedAt));
  const fromVm = sorted(
    records.map(([name, r]) => (r.runningSeenAt ?? Number.NaN) - (sentAt.get(name) ?? 0)),
  );
  const byTimestamps = sorted(
    records.map(([, r]) => {
      const created = Date.parse(r.running?.metadata?.creationTimestamp ?? "");
      return (r.running ? (phaseEnteredAt(r.running, "Running") ?? Number.NaN) : Number.NaN) - created;
    }),
  );
  const s = (value: number): Metric => ({ value: seconds(value), unit: "s" });
  return {
    vmi_creation_to_running_p50: s(percentile(fromVmi, 50)),
    vmi_creation_to_running_p95: s(percentile(fromVmi, 95)),
    vm_creation_to_running_p50: s(percentile(fromVm, 50)),
    vm_creation_to_running_p95: s(percentile(fromVm, 95)),
    vmi_creation_to_running_by_api_timestamps_p50: s(percentile(byTimestamps, 50)),
    vmi_creation_to_running_by_api_timestamps_p95: s(percentile(byTimestamps, 95)),
  };
}

/** Where the time goes: VMI creation → Scheduled (virt-controller, scheduler, node agent) → Running (virt-handler). */
function phaseMetrics(recorder: VmBurstRecorder): Record<string, Metric> {
  const records = [...recorder.vmis.values()];
  const scheduled = (r: (typeof records)[number]) => r.phaseSeenAt.get("Scheduled") ?? Number.NaN;
  const toScheduled = sorted(records.map((r) => scheduled(r) - r.addedAt));
  const toRunning = sorted(records.map((r) => (r.runningSeenAt ?? Number.NaN) - scheduled(r)));
  return {
    vmi_creation_to_scheduled_p50: { value: seconds(percentile(toScheduled, 50)), unit: "s" },
    vmi_creation_to_scheduled_p95: { value: seconds(percentile(toScheduled, 95)), unit: "s" },
    vmi_scheduled_to_running_p50: { value: seconds(percentile(toRunning, 50)), unit: "s" },
    vmi_scheduled_to_running_p95: { value: seconds(percentile(toRunning, 95)), unit: "s" },
  };
}

function writeMetrics(recorder: VmBurstRecorder): Record<string, Metric> {
  const writes = [...recorder.vmis.values()].map((r) => r.writesToRunning);
  const total = writes.reduce((sum, n) => sum + n, 0);
  const pods = recorder.launcherPodUids.size;
  return {
    vmis_running: { value: recorder.runningCount(), unit: "VMIs" },
    launcher_pods_created: { value: pods, unit: "pods" },
    vmi_writes_to_running_mean: {
      value: writes.length ? total / writes.length : Number.NaN,
      unit: "writes/VMI",
    },
    vmi_writes_to_running_max: { value: Math.max(...writes), unit: "writes/VMI" },
    vmi_writes_per_launcher_pod: { value: pods ? total / pods : Number.NaN, unit: "writes/pod" },
  };
}

function memoryMetrics(
  stack: KubevirtStack,
  domains: RunDomains,
  recorder: VmBurstRecorder,
): Record<string, Metric> {
  const rssOf = (pids: (number | undefined)[]) =>
    pids.flatMap((pid) => {
      if (pid === undefined) return [];
      try {
        return [residentBytes(pid) / MiB];
      } catch {
        return []; // ended meanwhile
      }
    });
  const launchers = rssOf([...recorder.launcherPodUids].map((uid) => launcherPid(stack, uid)));
  const qemus = rssOf(domains.names().map((name) => domains.qemuPid(name)));
  const mib = (value: number): Metric => ({ value, unit: "MiB" });
  return {
    launcher_process_rss_p50: mib(median(launchers)),
    qemu_rss_per_128mib_guest_p50: mib(median(qemus)),
    qemu_rss_per_128mib_guest_max: mib(Math.max(...qemus)),
    qemu_processes_measured: { value: qemus.length, unit: "processes" },
    virt_handler_rss: mib(rssOf(componentPids(stack, "virt-handler")).reduce((a, b) => a + b, 0)),
    virt_controller_rss: mib(rssOf(componentPids(stack, "virt-controller")).reduce((a, b) => a + b, 0)),
  };
}

/**
 * One VM on an idle node first, as a baseline: the same path without twenty guests competing for
 * the two cores. It is deleted, and its domain gone, before the next run starts. The first pulls
 * the test guest's image (the node has none yet); the second finds it cached.
 */
async function aloneOnTheNode(
  stack: KubevirtStack,
  domains: RunDomains,
  name: string,
): Promise<Record<string, Metric>> {
  const namespace = domains.namespace;
  const recorder = await VmBurstRecorder.start(stack.client, namespace);
  try {
    const vm = tinyVm(stack.repoRoot, { name, namespace, terminationGracePeriodSeconds: 0 });
    const sentAt = new Map([[name, Date.now()]]);
    await stack.client.resource(vmKind).create(vm);
    await waitForBurst(recorder, 1, 60_000);
    const record = recorder.vmis.get(name);
    await expectLauncherCpu(stack, namespace);
    const breakdown = await stackBreakdown(stack, namespace, recorder, sentAt);
    process.stdout.write(`\n${name}: one VM on the idle node\n${formatBreakdown(breakdown)}`);
    await stack.client.resource(vmKind).delete({ namespace, name });
    await pollUntil(`the ${name} VM's domain to go`, () => (domains.names().length === 0 ? true : undefined));
    const running = record?.runningSeenAt ?? Number.NaN;
    const key = name.replace(/-/g, "_");
    return {
      [`${key}_vm_creation_to_running`]: { value: seconds(running - (sentAt.get(name) ?? 0)), unit: "s" },
      [`${key}_vmi_creation_to_running`]: { value: seconds(running - (record?.addedAt ?? 0)), unit: "s" },
    };
  } finally {
    await recorder.stop();
  }
}

async function runDensity(stack: KubevirtStack, domains: RunDomains): Promise<Record<string, Metric>> {
  const namespace = domains.namespace;
  const names = Array.from({ length: VMS }, (_, i) => `density-${String(i).padStart(2, "0")}`);
  const vms = names.map((name) =>
    tinyVm(stack.repoRoot, { name, namespace, terminationGracePeriodSeconds: 0 }),
  );
  const recorder = await VmBurstRecorder.start(stack.client, namespace);
  try {
    const banners = names.slice(0, BANNER_SAMPLE).map((name) => bannerTime(domains, name));
    const cpuBefore = cpuSnapshot();
    const sentAt = await createVmBurst(stack.client, vms, CREATE_INTERVAL_MS);
    await waitForBurst(recorder, VMS, RUNNING_TIMEOUT_MS);
    const cpu = cpuSpent(cpuBefore, cpuSnapshot());
    process.stdout.write(`\nCPU seconds from the first create to the last Running\n`);
    for (const [who, secondsSpent] of cpu)
      process.stdout.write(`  ${who.padEnd(28)} ${secondsSpent.toFixed(2)}\n`);
    const breakdown = await stackBreakdown(stack, namespace, recorder, sentAt);
    process.stdout.write(`\n${formatBreakdown(breakdown)}`);
    const bannerAt = await Promise.all(banners);
    const toBanner = bannerAt.map((at, i) => at - (sentAt.get(names[i] ?? "") ?? at));
    await sleep(1000); // let the last guests' QEMU settle a moment before measuring memory
    return {
      ...latencyMetrics(recorder, sentAt),
      ...phaseMetrics(recorder),
      [`vm_creation_to_guest_banner_p50_of_${BANNER_SAMPLE}`]: {
        value: seconds(median(toBanner)),
        unit: "s",
      },
      ...writeMetrics(recorder),
      ...memoryMetrics(stack, domains, recorder),
      ...breakdownMetrics(breakdown),
      ...Object.fromEntries(
        cpu.map(([who, spent]) => [
          `burst_cpu_${who
            .replace(/[^A-Za-z0-9]+/g, "_")
            .replace(/_$/, "")
            .toLowerCase()}`,
          { value: spent, unit: "s" },
        ]),
      ),
    };
  } finally {
    await recorder.stop();
  }
}

/** The breakdown of the VMIs `recorder` saw, joined with the components' own traces of their starts. */
async function stackBreakdown(
  stack: KubevirtStack,
  namespace: string,
  recorder: VmBurstRecorder,
  sentAt: ReadonlyMap<string, number>,
): Promise<Breakdown> {
  return breakdownOf({
    vmis: recorder.vmis,
    sentAt,
    vmAddedAt: recorder.vmAddedAt,
    handlerStarts: await handlerStarts(stack.kubeconfig, namespace),
    podStarts: await podStarts(join(dirname(stack.dataDir), "start.log"), namespace),
  });
}

/**
 * The baseline VM's launcher pod asks for the CPU the ratio gives: virt-controller has read the
 * CR's new configuration, so the burst is placed by it.
 */
async function expectLauncherCpu(stack: KubevirtStack, namespace: string): Promise<void> {
  const pods = await stack.client.resource(podKind).list({ namespace, labelSelector: LAUNCHER_SELECTOR });
  const cpu = pods.items[0]?.spec?.containers[0]?.resources?.requests?.cpu;
  if (cpu !== EXPECTED_LAUNCHER_CPU) {
    throw new Error(
      `the launcher pod asks for cpu ${cpu ?? "(none)"}, not ${EXPECTED_LAUNCHER_CPU}: virt-controller did not apply cpuAllocationRatio ${CPU_ALLOCATION_RATIO}`,
    );
  }
}

/** Deletes the VMs and waits for their domains to go, so that virt-handler cleans up as it would for a user. */
async function deleteVms(stack: KubevirtStack, domains: RunDomains): Promise<void> {
  const vms = await stack.client.resource(vmKind).list({ namespace: domains.namespace });
  for (const vm of vms.items) {
    await stack.client
      .resource(vmKind)
      .delete({ namespace: domains.namespace, name: vm.metadata?.name ?? "" });
  }
  await pollUntil("the benchmark's domains to go", () => (domains.names().length === 0 ? true : undefined), {
    timeoutMs: 120_000,
    intervalMs: 500,
  }).catch((error: unknown) => process.stderr.write(`vm-density: ${String(error)}\n`));
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), "kubevirt-ts-density-"));
  const domains = await RunDomains.open(`density-${process.pid}`);
  let stack: KubevirtStack | undefined;
  try {
    stack = await startKubevirtStack(workDir, { tag: "dens" });
    await stack.client
      .resource(namespaceKind)
      .create({ apiVersion: "v1", kind: "Namespace", metadata: { name: domains.namespace } });
    await setCpuAllocationRatio(stack.client, CPU_ALLOCATION_RATIO);
    const baseline = {
      ...(await aloneOnTheNode(stack, domains, "alone-cold")),
      ...(await aloneOnTheNode(stack, domains, "alone")),
    };
    const metrics = await runDensity(stack, domains);
    reportBenchmark("vm-density", { ...metrics, ...baseline });
  } finally {
    if (stack?.running()) await deleteVms(stack, domains);
    if (stack) await stopKubevirtStack(stack);
    const removed = [...(stack ? removeNodeLeftovers(stack) : []), ...(await domains.removeAll())];
    await domains.close();
    rmSync(workDir, { recursive: true, force: true });
    if (removed.length > 0) process.stderr.write(`vm-density cleanup removed: ${removed.join(", ")}\n`);
  }
}

await main();
