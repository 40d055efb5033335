/**
 * `npm run bench -- libvirt`: the cost of the libvirt binding, on libvirt's in-process test driver
 * (test:///default, no daemon involved), so what is measured is the binding and not libvirt's RPC.
 * - one `Domain.state()` (virDomainGetState) through the binding, in microseconds;
 * - the same query through `virsh domstate` (a process per call), and the ratio of the two;
 * - one define + start + destroy + undefine cycle (four worker-thread calls) with its four lifecycle events.
 */
import { spawnSync } from "node:child_process";
import { Connection } from "../libvirt/index.js";
import { percentile, reportBenchmark } from "./bench-report.js";

const STATE_BATCHES = 20;
const STATE_CALLS_PER_BATCH = 10_000;
const VIRSH_CALLS = 40;
const CYCLES = 300;

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

async function main(): Promise<void> {
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
    reportBenchmark("libvirt", {
      getstate_binding_p50_us: { value: bindingP50, unit: "µs/call" },
      getstate_binding_p95_us: { value: percentile(binding, 95), unit: "µs/call (batch p95)" },
      getstate_virsh_p50_us: { value: virshP50, unit: "µs/call" },
      getstate_virsh_to_binding_ratio: { value: virshP50 / bindingP50, unit: "×" },
      lifecycle_cycle_p50_ms: { value: percentile(cycles, 50), unit: "ms (define+start+destroy+undefine)" },
      lifecycle_cycle_p95_ms: { value: percentile(cycles, 95), unit: "ms" },
    });
  } finally {
    await conn.close();
  }
}

await main();
