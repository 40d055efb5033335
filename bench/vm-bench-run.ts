import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vmKind } from "../test/e2e/testing/kinds.js";
import {
  type KubevirtStack,
  startKubevirtStack,
  stopKubevirtStack,
} from "../test/e2e/testing/kubevirt-stack.js";
import { removeNodeLeftovers } from "../test/e2e/testing/node-processes.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { RunDomains } from "../test/e2e/testing/run-domains.js";
import { type Metric, reportBenchmark } from "./bench-report.js";

export interface VmBenchRun {
  /** The benchmark's name: its results file, and the namespace's prefix. */
  name: string;
  /** A few letters naming the stack's bridge and node. */
  tag: string;
  /** The VM the measurement creates, deleted (and its domain awaited) before the stack stops. */
  vm: string;
}

/**
 * A benchmark on `npm start`'s stack of its own: the stack started, `measure` run against it and
 * its libvirt domains, the metrics reported, then everything it made removed again, whatever
 * happened (the VM and its domain, the stack, leftovers on the node).
 */
export async function runVmBenchmark(
  run: VmBenchRun,
  measure: (stack: KubevirtStack, domains: RunDomains) => Promise<Record<string, Metric>>,
): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), `kubevirt-ts-bench-${run.name}-`));
  const domains = await RunDomains.open(`${run.name}-${process.pid}`);
  let stack: KubevirtStack | undefined;
  try {
    stack = await startKubevirtStack(workDir, { tag: run.tag });
    reportBenchmark(run.name, await measure(stack, domains));
  } finally {
    if (stack?.running()) {
      await stack.client
        .resource(vmKind)
        .delete({ namespace: domains.namespace, name: run.vm })
        .catch(() => undefined);
      await pollUntil(
        "the benchmark's domain to go",
        () => (domains.names().length === 0 ? true : undefined),
        {
          timeoutMs: 60_000,
        },
      ).catch((error: unknown) => process.stderr.write(`${run.name} bench: ${String(error)}\n`));
    }
    if (stack) await stopKubevirtStack(stack);
    const removed = [...(stack ? removeNodeLeftovers(stack) : []), ...(await domains.removeAll())];
    await domains.close();
    rmSync(workDir, { recursive: true, force: true });
    if (removed.length > 0)
      process.stderr.write(`${run.name} bench cleanup removed: ${removed.join(", ")}\n`);
  }
}
