/**
 * `npm run bench -- images [pull] [vms]`: what containerDisk images from registries cost.
 * - pull: throughput of a cold pull of a ~256 MiB containerDisk from a local registry by
 *   virt-handler's RegistryImageSource, beside skopeo's copy of it (image-pull-throughput.ts);
 * - vms: VM creation → Running with a never-pulled image and with a cached one, and, when the Debian
 *   cloud guest can be had (test/cloud-guest/), VM creation → its SSH banner (vm-image-creation.ts,
 *   debian-guest-ssh.ts), on a stack of its own.
 * Without arguments both run. Results go to bench/results/images.json.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCloudGuest } from "../test/cloud-guest/ensure-cloud-guest.js";
import { Kubectl } from "../test/dev-cluster/testing/kubectl.js";
import { type KubevirtStack, startKubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { RunDomains } from "../test/e2e/testing/run-domains.js";
import { tearDownRun } from "../test/e2e/testing/run-teardown.js";
import { ensureTestGuest } from "../test/guest/ensure-test-guest.js";
import { type Metric, reportBenchmark } from "./bench-report.js";
import { measureDebianSsh } from "./debian-guest-ssh.js";
import { measurePullThroughput } from "./image-pull-throughput.js";
import { measureVmCreation } from "./vm-image-creation.js";

const CLOUD_GUEST_WAIT_MS = 120_000;

async function measureOnStack(): Promise<Record<string, Metric>> {
  // Its own temporary directory, which the stack makes traversable for passt (it runs unprivileged),
  // with a short name: virt-handler's VM sockets below it must fit a unix socket path.
  const workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-bench-images-"));
  const namespace = `images-bench-${process.pid}`;
  const domains = await RunDomains.open(namespace);
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl | undefined;
  try {
    const guest = await ensureTestGuest({});
    stack = await startKubevirtStack(workDir, { tag: "imgb", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    await kubectl.ok(["create", "namespace", namespace]);
    const context = { stack, domains, namespace };
    const metrics = await measureVmCreation(context, guest);
    const cloudGuest = await ensureCloudGuest({ lockTimeoutMs: CLOUD_GUEST_WAIT_MS }).catch(
      (error: unknown) => {
        process.stderr.write(
          `images bench: no Debian cloud guest, its metric is left out: ${String(error)}\n`,
        );
        return undefined;
      },
    );
    if (cloudGuest) Object.assign(metrics, await measureDebianSsh(context, cloudGuest, workDir));
    return metrics;
  } finally {
    await tearDownRun({ label: "images bench", namespace, workDir, stack, kubectl, domains });
  }
}

const parts = new Set(process.argv.slice(2));
const all = parts.size === 0;
const workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-bench-pull-"));
try {
  const metrics: Record<string, Metric> = {
    load_average_at_start: { value: loadavg()[0] ?? Number.NaN, unit: "1-min load" },
  };
  if (all || parts.has("pull")) Object.assign(metrics, await measurePullThroughput(workDir));
  if (all || parts.has("vms")) Object.assign(metrics, await measureOnStack());
  reportBenchmark("images", metrics);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
