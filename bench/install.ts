/**
 * `npm run bench -- install`: how fast virt-operator installs and repairs kubevirt-ts on the dev
 * cluster (`npm start`'s stack, real libvirt on this node). Measured from the client's side, each
 * several times:
 * - install: the KubeVirt CR applied (the operator already running) → condition Available;
 * - repair: the virt-handler DaemonSet deleted → a new one exists, and → Available again;
 * - uninstall: the CR deleted → gone, every managed object removed.
 * The first install (cluster start, operator pods starting) is reported apart. Then the same
 * install on real Kubernetes, cold and warm, and the image sizes (install-real-kubernetes.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { findRepositoryRoot } from "../api/crd/repository-root.js";
import { defineKind, type KubeClient, type KubeObject } from "../runtime/index.js";
import { conditionOf } from "../test/e2e/testing/kinds.js";
import {
  type KubevirtStack,
  startKubevirtStack,
  stopKubevirtStack,
} from "../test/e2e/testing/kubevirt-stack.js";
import { removeNodeLeftovers } from "../test/e2e/testing/node-processes.js";
import { pollUntil } from "../test/e2e/testing/poll.js";
import { type Metric, percentile, reportBenchmark } from "./bench-report.js";
import { measureRealKubernetesInstall } from "./install-real-kubernetes.js";

const ROUNDS = 3;
const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));

interface KubeVirtObject extends KubeObject {
  spec?: Record<string, unknown>;
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

const kubevirtKind = defineKind<KubeVirtObject>({
  group: "kubevirt.io",
  version: "v1",
  kind: "KubeVirt",
  plural: "kubevirts",
  namespaced: true,
});

const daemonSetKind = defineKind<KubeObject>({
  group: "apps",
  version: "v1",
  kind: "DaemonSet",
  plural: "daemonsets",
  namespaced: true,
});

const KV = { namespace: "kubevirt", name: "kubevirt" };

async function isAvailable(client: KubeClient): Promise<boolean> {
  const object = await client
    .resource(kubevirtKind)
    .get(KV)
    .catch(() => undefined);
  return conditionOf(object?.status?.conditions, "Available")?.status === "True";
}

async function timeUntil(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  await pollUntil(what, async () => ((await check()) ? true : undefined), {
    timeoutMs: 300_000,
    intervalMs: 50,
  });
  return performance.now() - started;
}

/** deploy/kubevirt-cr.yaml as npm start applies it (with the emulation switch the stack chose). */
function kubevirtCr(repoRoot: string, useEmulation: boolean): KubeVirtObject {
  const cr = parse(readFileSync(join(repoRoot, "deploy", "kubevirt-cr.yaml"), "utf8")) as KubeVirtObject;
  const spec: Record<string, unknown> = { ...cr.spec, uninstallStrategy: "RemoveWorkloads" };
  if (useEmulation) {
    const configuration = (cr.spec?.configuration ?? {}) as { developerConfiguration?: object };
    spec.configuration = {
      ...configuration,
      developerConfiguration: { ...configuration.developerConfiguration, useEmulation: true },
    };
  }
  return { ...cr, spec };
}

async function run(): Promise<Record<string, Metric>> {
  const workDir = mkdtempSync(join(tmpdir(), "kubevirt-ts-bench-install-"));
  let stack: KubevirtStack | undefined;
  try {
    const startedAt = performance.now();
    stack = await startKubevirtStack(workDir, { tag: "inst" });
    const client = stack.client;
    await timeUntil("the first install to be Available", () => isAvailable(client));
    const firstInstall = performance.now() - startedAt;
    const live = await client.resource(kubevirtKind).get(KV);
    const configuration = live.spec?.configuration as { developerConfiguration?: { useEmulation?: boolean } };
    const cr = kubevirtCr(stack.repoRoot, configuration?.developerConfiguration?.useEmulation === true);
    await client.resource(kubevirtKind).mergePatch(KV, { spec: { uninstallStrategy: "RemoveWorkloads" } });

    const installs: number[] = [];
    const uninstalls: number[] = [];
    const restores: number[] = [];
    const restoredAvailable: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const daemonSets = client.resource(daemonSetKind);
      const old = await daemonSets.get({ namespace: "kubevirt", name: "virt-handler" });
      const deletedAt = performance.now();
      await daemonSets.delete({ namespace: "kubevirt", name: "virt-handler" });
      await timeUntil("a new virt-handler DaemonSet", async () => {
        const now = await daemonSets
          .get({ namespace: "kubevirt", name: "virt-handler" })
          .catch(() => undefined);
        return now !== undefined && now.metadata?.uid !== old.metadata?.uid;
      });
      restores.push(performance.now() - deletedAt);
      // Available may not have dropped yet: wait for the restored pod to be counted.
      await timeUntil("Available after the restore", async () => {
        const now = await daemonSets.get({ namespace: "kubevirt", name: "virt-handler" });
        const status = (now as { status?: { numberAvailable?: number } }).status;
        return (status?.numberAvailable ?? 0) > 0 && (await isAvailable(client));
      });
      restoredAvailable.push(performance.now() - deletedAt);

      const deletingAt = performance.now();
      await client.resource(kubevirtKind).delete(KV);
      await timeUntil(
        "the CR to be gone",
        async () =>
          (await client
            .resource(kubevirtKind)
            .get(KV)
            .catch(() => undefined)) === undefined,
      );
      uninstalls.push(performance.now() - deletingAt);
      const appliedAt = performance.now();
      await client.resource(kubevirtKind).create(cr);
      await timeUntil("the reinstall to be Available", () => isAvailable(client));
      installs.push(performance.now() - appliedAt);
    }
    const seconds = (values: number[], p: number) =>
      percentile(
        [...values].sort((a, b) => a - b),
        p,
      ) / 1000;
    return {
      first_install_with_cluster_start_s: { value: firstInstall / 1000, unit: "s" },
      install_cr_to_available_p50_s: { value: seconds(installs, 50), unit: "s" },
      install_cr_to_available_max_s: { value: seconds(installs, 100), unit: "s" },
      daemonset_deleted_to_recreated_p50_s: { value: seconds(restores, 50), unit: "s" },
      daemonset_deleted_to_available_p50_s: { value: seconds(restoredAvailable, 50), unit: "s" },
      uninstall_cr_deleted_to_gone_p50_s: { value: seconds(uninstalls, 50), unit: "s" },
      rounds: { value: ROUNDS, unit: "rounds" },
    };
  } finally {
    if (stack) {
      await stopKubevirtStack(stack);
      removeNodeLeftovers(stack);
    }
    rmSync(workDir, { recursive: true, force: true });
  }
}

// The dev cluster's stack is stopped before the real cluster starts: both use the host's libvirtd.
run().then(
  async (metrics) =>
    reportBenchmark("install", { ...metrics, ...(await measureRealKubernetesInstall(root)) }),
  (error: unknown) => {
    process.stderr.write(
      `bench install: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
