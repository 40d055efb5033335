/**
 * `npm run bench -- vm-density`: KubeVirt's density test, scaled to this machine. `npm start`'s
 * stack (scripts/start.mjs, as the end-to-end test runs it) gets 20 VMs of the test guest
 * (examples/vm-tiny.yaml, 128 MiB, TCG) created 100 ms apart, and the benchmark measures:
 * - creation → Running, p50 and p95: from each VMI's creation (its ADDED watch event) to the first
 *   event showing it Running (this host's clock, ms); also from the VM's create request, and from
 *   the API's own timestamps (creationTimestamp → the Running phaseTransitionTimestamp, which carry
 *   whole seconds), KubeVirt's `phase_transition_time_from_creation` figure;
 * - time from the VM's create request to the guest's banner on its console, for the first three;
 * - VMI writes (MODIFIED events) from creation to Running, per VMI and per launcher pod created;
 * - resident memory of a launcher pod's process (`sleep`), of QEMU per 128 MiB guest, and of
 *   virt-handler and virt-controller.
 * - as a baseline, creation → Running of one VM alone on the idle node, before the twenty.
 * Targets: p50 < 1 s, p95 < 2 s, ≤ 3 VMI writes per VMI. Twenty TCG guests booting on two cores
 * slow everything else down: the figures include that load, as a density test's would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { defineKind, type KubeClient, type KubeObject } from "../runtime/index.js";
import { phaseEnteredAt, type VirtualMachine, vmKind } from "../test/e2e/testing/kinds.js";
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
import { tinyVm } from "../test/e2e/testing/vm-manifests.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { type Metric, percentile, reportBenchmark } from "./bench-report.js";
import { DensityRecorder } from "./vm-density-recorder.js";

const VMS = 20;
const CREATE_INTERVAL_MS = 100;
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

/** Creates the VMs on a fixed schedule (not one after the other's answer); returns when each request left. */
async function createVms(client: KubeClient, vms: VirtualMachine[]): Promise<Map<string, number>> {
  const sentAt = new Map<string, number>();
  const start = Date.now();
  const requests: Promise<unknown>[] = [];
  for (const [index, vm] of vms.entries()) {
    const wait = start + index * CREATE_INTERVAL_MS - Date.now();
    if (wait > 0) await sleep(wait);
    sentAt.set(vm.metadata?.name ?? "", Date.now());
    requests.push(client.resource(vmKind).create(vm));
  }
  await Promise.all(requests);
  return sentAt;
}

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

function latencyMetrics(recorder: DensityRecorder, sentAt: Map<string, number>): Record<string, Metric> {
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
function phaseMetrics(recorder: DensityRecorder): Record<string, Metric> {
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

function writeMetrics(recorder: DensityRecorder): Record<string, Metric> {
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
  recorder: DensityRecorder,
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
 * the two cores. It is deleted, and its domain gone, before the density run starts.
 */
async function aloneOnTheNode(stack: KubevirtStack, domains: RunDomains): Promise<Record<string, Metric>> {
  const name = "alone";
  const recorder = await DensityRecorder.start(stack.client, domains.namespace);
  try {
    const vm = tinyVm(stack.repoRoot, {
      name,
      namespace: domains.namespace,
      terminationGracePeriodSeconds: 0,
    });
    const sentAt = new Map([[name, Date.now()]]);
    await stack.client.resource(vmKind).create(vm);
    await pollUntil("the baseline VM to run", () => (recorder.runningCount() === 1 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 50,
    });
    const record = recorder.vmis.get(name);
    await stack.client.resource(vmKind).delete({ namespace: domains.namespace, name });
    await pollUntil("the baseline VM's domain to go", () =>
      domains.names().length === 0 ? true : undefined,
    );
    const running = record?.runningSeenAt ?? Number.NaN;
    return {
      alone_vm_creation_to_running: { value: seconds(running - (sentAt.get(name) ?? 0)), unit: "s" },
      alone_vmi_creation_to_running: { value: seconds(running - (record?.addedAt ?? 0)), unit: "s" },
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
  const recorder = await DensityRecorder.start(stack.client, namespace);
  try {
    const banners = names.slice(0, BANNER_SAMPLE).map((name) => bannerTime(domains, name));
    const sentAt = await createVms(stack.client, vms);
    await pollUntil(
      `${VMS} VMIs Running`,
      () => {
        if (recorder.failure) throw recorder.failure;
        return recorder.runningCount() === VMS ? true : undefined;
      },
      {
        timeoutMs: RUNNING_TIMEOUT_MS,
        intervalMs: 100,
        lastSeen: () => `${recorder.runningCount()} Running`,
      },
    );
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
    };
  } finally {
    await recorder.stop();
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
    const baseline = await aloneOnTheNode(stack, domains);
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
