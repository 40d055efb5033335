/**
 * `npm run bench -- storage`: storage on `npm start`'s stack (one stack, one run of each), with the
 * real kubectl, libvirt and QEMU (TCG):
 * - DataVolume import throughput (storage-import.ts): a ~256 MiB half-random raw disk into a 512Mi
 *   claim, from the dev cluster's registry (a containerDisk image) and over http from the node's
 *   bridge; MB/s of the disk's bytes from the DataVolume's creation to Succeeded, and the importer's
 *   own part (its Running condition True → Succeeded);
 * - sequential write and read in the guest (storage-guest-io.ts): 128 MiB with busybox dd and
 *   O_DIRECT on a 256Mi emptyDisk and on a 256Mi PersistentVolumeClaim disk;
 * - a VM on a 1Gi dataVolumeTemplate of the test guest (storage-dv-boot.ts): `kubectl apply` → VMI
 *   Running, and the part until its DataVolume Succeeded.
 * It measures, it asserts no speed. Runs as root (pod network namespaces, qemu:///system).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kubectl } from "../test/dev-cluster/testing/kubectl.js";
import { type KubevirtStack, startKubevirtStack } from "../test/e2e/testing/kubevirt-stack.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { RunDomains } from "../test/e2e/testing/run-domains.js";
import { tearDownRun } from "../test/e2e/testing/run-teardown.js";
import { reportBenchmark } from "./bench-report.js";
import { measureDataVolumeBoot } from "./storage-dv-boot.js";
import { GUEST_IO_VM, measureGuestIo } from "./storage-guest-io.js";
import { measureImports } from "./storage-import.js";

async function main(): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new Error("the storage benchmark needs root: pod network namespaces and qemu:///system");
  const namespace = `storage-${process.pid}`;
  const workDir = await mkdtemp(join(tmpdir(), "kubevirt-ts-bench-storage-"));
  const domains = await RunDomains.open(namespace);
  let stack: KubevirtStack | undefined;
  let kubectl: Kubectl | undefined;
  try {
    stack = await startKubevirtStack(workDir, { tag: "stor", timeoutMs: 300_000 });
    kubectl = new Kubectl(stack.kubeconfig, join(workDir, "kubectl-cache"));
    await kubectl.ok(["create", "namespace", namespace]);
    const imports = await measureImports(stack, namespace, workDir);
    const guestIo = await measureGuestIo(stack, domains, kubectl, namespace);
    // The next VM gets the node's CPUs to itself: the I/O guest and its domain go first.
    await kubectl.ok(["delete", "vm", GUEST_IO_VM, "-n", namespace, "--wait=true", "--timeout=90s"]);
    await pollUntil("the I/O guest's domain to go", () => (domains.names().length === 0 ? true : undefined), {
      timeoutMs: 90_000,
    });
    const dvBoot = await measureDataVolumeBoot(stack, kubectl, namespace);
    reportBenchmark("storage", { ...imports, ...guestIo, ...dvBoot });
  } finally {
    await tearDownRun({ label: "storage bench", namespace, workDir, stack, kubectl, domains });
  }
}

await main();
