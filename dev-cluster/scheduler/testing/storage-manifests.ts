/**
 * Claims, volumes and classes for the scheduler's end-to-end volume tests, and the PV controller's
 * and provisioner's part played with plain API writes (so the tests need neither).
 */
import type { TestCluster } from "./cluster.js";

export const SELECTED_NODE = "volume.kubernetes.io/selected-node";

export function classManifest(
  name: string,
  volumeBindingMode: "Immediate" | "WaitForFirstConsumer",
  provisioner = "kubevirt-ts.io/local-path",
) {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name },
    provisioner,
    volumeBindingMode,
  };
}

export function claimManifest(name: string, storageClassName: string, extra: { finalizers?: string[] } = {}) {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: "default", ...extra },
    spec: { storageClassName, accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
  };
}

export function volumeManifest(name: string, storageClassName: string, node: string) {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name },
    spec: {
      storageClassName,
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Delete",
      local: { path: `/tmp/${name}` },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }] },
          ],
        },
      },
    },
  };
}

/** A pod that mounts each claim. */
export function podWithClaims(name: string, claims: string[], spec: Record<string, unknown> = {}) {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default" },
    spec: {
      containers: [{ name: "main", image: "pause" }],
      volumes: claims.map((claimName, index) => ({
        name: `data-${index}`,
        persistentVolumeClaim: { claimName },
      })),
      ...spec,
    },
  };
}

async function patch(cluster: TestCluster, args: string[], body: unknown): Promise<void> {
  await cluster.kubectlOut(["patch", ...args, "--type=merge", "-p", JSON.stringify(body)]);
}

export async function setVolumePhase(cluster: TestCluster, volume: string, phase: string): Promise<void> {
  await patch(cluster, ["pv", volume, "--subresource=status"], { status: { phase } });
}

/**
 * The provisioner's part: a volume for the claim on `node`, its claimRef naming the claim by uid
 * (skipped when `volume` exists already, as a statically pre-bound one does).
 */
export async function provisionFor(
  cluster: TestCluster,
  claim: string,
  volume: string,
  node: string,
): Promise<void> {
  const uid = await cluster.kubectlOut(["get", "pvc", claim, "-o", "jsonpath={.metadata.uid}"]);
  const manifest = volumeManifest(volume, await claimClass(cluster, claim), node);
  const claimRef = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    namespace: "default",
    name: claim,
    uid,
  };
  await cluster.create({
    ...manifest,
    metadata: {
      name: volume,
      annotations: { "pv.kubernetes.io/provisioned-by": "kubevirt-ts.io/local-path" },
    },
    spec: { ...manifest.spec, claimRef },
  });
}

async function claimClass(cluster: TestCluster, claim: string): Promise<string> {
  return cluster.kubectlOut(["get", "pvc", claim, "-o", "jsonpath={.spec.storageClassName}"]);
}

/** The PV controller's part: the claim bound to the volume, both Bound. */
export async function completeBinding(cluster: TestCluster, claim: string, volume: string): Promise<void> {
  await patch(cluster, ["pvc", claim], {
    metadata: { annotations: { "pv.kubernetes.io/bind-completed": "yes" } },
    spec: { volumeName: volume },
  });
  await patch(cluster, ["pvc", claim, "--subresource=status"], {
    status: { phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "1Gi" } },
  });
  await setVolumePhase(cluster, volume, "Bound");
}

export async function selectedNode(cluster: TestCluster, claim: string): Promise<string> {
  return cluster.kubectlOut([
    "get",
    "pvc",
    claim,
    "-o",
    "jsonpath={.metadata.annotations.volume\\.kubernetes\\.io/selected-node}",
  ]);
}

export async function scheduledCondition(cluster: TestCluster, pod: string): Promise<string> {
  return cluster.kubectlOut([
    "get",
    "pod",
    pod,
    "-o",
    'jsonpath={.status.conditions[?(@.type=="PodScheduled")].reason}: {.status.conditions[?(@.type=="PodScheduled")].message}',
  ]);
}
