/**
 * The install benchmark's real-Kubernetes part: `npm start -- --real-kubernetes` to
 * `kubectl wait kv --for condition=Available` (its `ready` file), cold (a new data directory: new
 * etcd, certificates, an empty registry and an empty containerd, so every image is pushed and
 * pulled; podman's build cache is kept, and the first build is not measured here) and warm (the
 * same data directory started again: etcd resumes, containerd has the images), and the size of
 * each component image.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startRealKubernetes } from "../test/e2e/testing/real-kubernetes-process.js";
import type { Metric } from "./bench-report.js";

const run = promisify(execFile);
const COMPONENTS = [
  "virt-operator",
  "virt-api",
  "virt-controller",
  "virt-handler",
  "virt-launcher",
  "cdi-importer",
];
const START_TIMEOUT_MS = 45 * 60_000;

export async function measureRealKubernetesInstall(root: string): Promise<Record<string, Metric>> {
  const dataDir = await mkdtemp(join(tmpdir(), "bench-install-real-kubernetes-"));
  try {
    const timeStart = async () => {
      const startedAt = performance.now();
      const cluster = await startRealKubernetes({
        root,
        dataDir,
        timeoutMs: START_TIMEOUT_MS,
        buildKubernetes: true,
      });
      return { cluster, seconds: (performance.now() - startedAt) / 1000 };
    };
    const cold = await timeStart();
    const tag = await imageTag(cold.cluster.kubeconfig);
    const sizes: Record<string, Metric> = {};
    for (const component of COMPONENTS) {
      const image = `localhost:5000/kubevirt-ts/${component}:${tag}`;
      const bytes = Number(
        (await run("podman", ["image", "inspect", "--format", "{{.Size}}", image])).stdout.trim(),
      );
      sizes[`image_${component.replaceAll("-", "_")}_mb`] = { value: bytes / 1e6, unit: "MB" };
    }
    await stopOrFail(cold.cluster);
    const warm = await timeStart();
    await stopOrFail(warm.cluster);
    return {
      real_k8s_cold_start_to_available_s: { value: cold.seconds, unit: "s" },
      real_k8s_warm_start_to_available_s: { value: warm.seconds, unit: "s" },
      ...sizes,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function imageTag(kubeconfig: string): Promise<string> {
  const { stdout } = await run("kubectl", [
    ...["--kubeconfig", kubeconfig, "-n", "kubevirt", "get", "deployment", "virt-operator"],
    ...["-o", "jsonpath={.spec.template.spec.containers[0].image}"],
  ]);
  return stdout.trim().split(":").at(-1) ?? "";
}

async function stopOrFail(cluster: Awaited<ReturnType<typeof startRealKubernetes>>): Promise<void> {
  const code = await cluster.stop();
  if (code !== 0)
    throw new Error(
      `npm start -- --real-kubernetes did not stop cleanly (${code}):\n${cluster.output().slice(-2000)}`,
    );
}
