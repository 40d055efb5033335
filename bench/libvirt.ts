/**
 * `npm run bench -- libvirt`: the cost of the libvirt binding, on libvirt's in-process test driver
 * (test:///default, no daemon involved), so what is measured is the binding and not libvirt's RPC.
 * - one `Domain.state()` (virDomainGetState) through the binding, in microseconds;
 * - the same query through `virsh domstate` (a process per call), and the ratio of the two;
 * - one define + start + destroy + undefine cycle (four worker-thread calls) with its four lifecycle events.
 * Then, when libvirtd runs, the test guest (test/guest) on qemu:///system (TCG):
 * - define + start latency (virDomainDefineXML + virDomainCreate, the XML from our domain model);
 * - start to banner: from the start call to the guest's banner on the console (its boot under TCG).
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { domainToXml } from "../libvirt/domain-xml/index.js";
import { Connection } from "../libvirt/index.js";
import { ensureTestGuest, type TestGuest } from "../test/guest/ensure-test-guest.js";
import { TEST_GUEST_BANNER } from "../test/guest/guest-console.js";
import { ConsoleTranscript } from "../test/libvirt/testing/console-transcript.js";
import { removeTestDomain } from "../test/libvirt/testing/domain-cleanup.js";
import { testGuestDomain } from "../test/libvirt/testing/guest-domain.js";
import { createGuestWorkspace } from "../test/libvirt/testing/guest-workspace.js";
import { type Metric, percentile, reportBenchmark } from "./bench-report.js";

const STATE_BATCHES = 20;
const STATE_CALLS_PER_BATCH = 10_000;
const VIRSH_CALLS = 40;
const CYCLES = 300;
const QEMU_URI = "qemu:///system";
const LIBVIRTD_SOCKET = "/run/libvirt/libvirt-sock";
const GUEST_RUNS = 10;
/** The first runs also wait for the banner (about 5 s each under TCG); the others stop right after start. */
const GUEST_BANNER_RUNS = 5;
const BANNER_TIMEOUT_MS = 60_000;

/** Microseconds per call for each batch of `calls` calls of `fn`, sorted. */
function batches(count: number, calls: number, fn: () => void): number[] {
  const perCall: number[] = [];
  for (let b = 0; b < count; b++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    perCall.push(Number(process.hrtime.bigint() - started) / 1_000 / calls);
  }
  return perCall.sort((a, b) => a - b);
}

function virshDomstateMicros(): number[] {
  const times: number[] = [];
  for (let i = 0; i < VIRSH_CALLS; i++) {
    const started = process.hrtime.bigint();
    const result = spawnSync("virsh", ["-c", "test:///default", "domstate", "test"], { encoding: "utf8" });
    times.push(Number(process.hrtime.bigint() - started) / 1_000);
    if (result.status !== 0 || !result.stdout.includes("running")) {
      throw new Error(`virsh domstate failed: ${result.stderr || result.error?.message}`);
    }
  }
  return times.sort((a, b) => a - b);
}

async function cycleMillis(conn: Connection): Promise<number[]> {
  let events = 0;
  const subscription = conn.onLifecycle(() => {
    events += 1;
  });
  const times: number[] = [];
  for (let i = 0; i < CYCLES; i++) {
    const started = process.hrtime.bigint();
    const domain = await conn.defineDomain(
      `<domain type='test'><name>bench-${i}</name><memory>1024</memory><os><type>hvm</type></os></domain>`,
    );
    await domain.start();
    await domain.destroy();
    await domain.undefine();
    domain.free();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const deadline = Date.now() + 5_000;
  while (events < CYCLES * 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  subscription.unsubscribe();
  if (events !== CYCLES * 4) throw new Error(`expected ${CYCLES * 4} lifecycle events, got ${events}`);
  return times.sort((a, b) => a - b);
}

interface GuestRun {
  defineMs: number;
  startMs: number;
  startToBannerMs?: number;
}

/** One run: define and start the test guest (on its own overlay), maybe wait for its banner, remove it all. */
async function guestRun(
  conn: Connection,
  guest: TestGuest,
  index: number,
  waitForBanner: boolean,
): Promise<GuestRun> {
  const name = `bench-guest-${process.pid}-${index}`;
  const workspace = await createGuestWorkspace(guest);
  try {
    const xml = domainToXml(
      testGuestDomain({ name, guest, rootDisk: workspace.rootDisk, runId: randomUUID() }),
    );
    const defineAt = performance.now();
    const domain = await conn.defineDomain(xml);
    const startAt = performance.now();
    try {
      await domain.start();
      const run: GuestRun = { defineMs: startAt - defineAt, startMs: performance.now() - startAt };
      if (waitForBanner) {
        // Opened once start returns: the banner comes seconds later, so nothing that matters is missed.
        const serial = domain.openConsole({ force: true });
        try {
          await new ConsoleTranscript(serial).waitFor(TEST_GUEST_BANNER, BANNER_TIMEOUT_MS);
          run.startToBannerMs = performance.now() - startAt;
        } finally {
          serial.destroy();
        }
      }
      return run;
    } finally {
      domain.free();
    }
  } finally {
    await removeTestDomain(QEMU_URI, name);
    await workspace.remove();
  }
}

async function qemuGuestMetrics(): Promise<Record<string, Metric>> {
  if (!existsSync(LIBVIRTD_SOCKET)) {
    process.stdout.write(
      "\nqemu:///system: libvirtd is not running (npm run setup-host starts it); skipped\n",
    );
    return {};
  }
  const guest = await ensureTestGuest();
  const conn = await Connection.open(QEMU_URI);
  const runs: GuestRun[] = [];
  try {
    for (let i = 0; i < GUEST_RUNS; i++) runs.push(await guestRun(conn, guest, i, i < GUEST_BANNER_RUNS));
  } finally {
    await conn.close();
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const defineStart = sorted(runs.map((run) => run.defineMs + run.startMs));
  const banner = sorted(
    runs.flatMap((run) => (run.startToBannerMs === undefined ? [] : [run.startToBannerMs])),
  );
  return {
    qemu_guest_define_p50_ms: { value: percentile(sorted(runs.map((r) => r.defineMs)), 50), unit: "ms" },
    qemu_guest_start_p50_ms: { value: percentile(sorted(runs.map((r) => r.startMs)), 50), unit: "ms" },
    qemu_guest_define_start_p50_ms: {
      value: percentile(defineStart, 50),
      unit: `ms (define+start, ${runs.length} runs; target < 400)`,
    },
    qemu_guest_define_start_max_ms: { value: percentile(defineStart, 100), unit: "ms" },
    qemu_guest_start_to_banner_p50_ms: {
      value: percentile(banner, 50),
      unit: `ms (start call → banner on the console, ${banner.length} runs, TCG)`,
    },
    qemu_guest_start_to_banner_max_ms: { value: percentile(banner, 100), unit: "ms" },
  };
}

async function testDriverMetrics(): Promise<Record<string, Metric>> {
  const conn = await Connection.open("test:///default");
  try {
    const domain = conn.lookupDomainByName("test");
    batches(2, STATE_CALLS_PER_BATCH, () => domain.state()); // warm-up
    const binding = batches(STATE_BATCHES, STATE_CALLS_PER_BATCH, () => domain.state());
    domain.free();
    const virsh = virshDomstateMicros();
    const cycles = await cycleMillis(conn);
    const bindingP50 = percentile(binding, 50);
    const virshP50 = percentile(virsh, 50);
    return {
      getstate_binding_p50_us: { value: bindingP50, unit: "µs/call" },
      getstate_binding_p95_us: { value: percentile(binding, 95), unit: "µs/call (batch p95)" },
      getstate_virsh_p50_us: { value: virshP50, unit: "µs/call" },
      getstate_virsh_to_binding_ratio: { value: virshP50 / bindingP50, unit: "×" },
      lifecycle_cycle_p50_ms: { value: percentile(cycles, 50), unit: "ms (define+start+destroy+undefine)" },
      lifecycle_cycle_p95_ms: { value: percentile(cycles, 95), unit: "ms" },
    };
  } finally {
    await conn.close();
  }
}

async function main(): Promise<void> {
  const metrics = await testDriverMetrics();
  reportBenchmark("libvirt", { ...metrics, ...(await qemuGuestMetrics()) });
}

await main();
