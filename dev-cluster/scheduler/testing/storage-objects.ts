/** Small builders of claims, volumes and classes for the scheduler's volume tests. */
import { deepFreeze, type Frozen } from "../../../runtime/index.js";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "../kinds.js";
import type { VolumeLookup } from "../volumes/pod-volume-claims.js";

let uidSequence = 0;

export interface TestClaimOptions {
  className?: string;
  storage?: string;
  accessModes?: NonNullable<PersistentVolumeClaim["spec"]>["accessModes"];
  /** Bound to this volume, with the PV controller's bind-completed annotation. */
  boundTo?: string;
  annotations?: Record<string, string>;
  deleting?: boolean;
  phase?: NonNullable<PersistentVolumeClaim["status"]>["phase"];
}

export function testClaim(name: string, options: TestClaimOptions = {}): Frozen<PersistentVolumeClaim> {
  const annotations = {
    ...options.annotations,
    ...(options.boundTo ? { "pv.kubernetes.io/bind-completed": "yes" } : {}),
  };
  return deepFreeze<PersistentVolumeClaim>({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name,
      namespace: "default",
      uid: `claim-${name}-${uidSequence++}`,
      resourceVersion: "1",
      annotations,
      ...(options.deleting ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
    },
    spec: {
      storageClassName: options.className ?? "local-path",
      accessModes: options.accessModes ?? ["ReadWriteOnce"],
      resources: { requests: { storage: options.storage ?? "1Gi" } },
      ...(options.boundTo ? { volumeName: options.boundTo } : {}),
    },
    status: { phase: options.phase ?? (options.boundTo ? "Bound" : "Pending") },
  });
}

export interface TestVolumeOptions {
  className?: string;
  storage?: string;
  /** Node affinity `kubernetes.io/hostname In [node]`. */
  node?: string;
  claim?: Frozen<PersistentVolumeClaim>;
  phase?: NonNullable<PersistentVolume["status"]>["phase"];
  labels?: Record<string, string>;
}

export function testVolume(name: string, options: TestVolumeOptions = {}): Frozen<PersistentVolume> {
  const claim = options.claim;
  return deepFreeze<PersistentVolume>({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, uid: `volume-${name}`, resourceVersion: "1", labels: options.labels ?? {} },
    spec: {
      storageClassName: options.className ?? "local-path",
      capacity: { storage: options.storage ?? "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: `/tmp/${name}` },
      ...(options.node
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: "kubernetes.io/hostname", operator: "In", values: [options.node] },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
      ...(claim
        ? {
            claimRef: {
              kind: "PersistentVolumeClaim",
              namespace: claim.metadata?.namespace,
              name: claim.metadata?.name,
              uid: claim.metadata?.uid,
            },
          }
        : {}),
    },
    status: { phase: options.phase ?? (claim ? "Bound" : "Available") },
  });
}

export function testClass(
  name: string,
  mode: "Immediate" | "WaitForFirstConsumer",
  extra: Partial<StorageClass> = {},
): Frozen<StorageClass> {
  return deepFreeze<StorageClass>({
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name },
    provisioner: "kubevirt-ts.io/local-path",
    volumeBindingMode: mode,
    ...extra,
  });
}

export function lookupOf(objects: {
  claims?: Frozen<PersistentVolumeClaim>[];
  volumes?: Frozen<PersistentVolume>[];
  classes?: Frozen<StorageClass>[];
}): VolumeLookup {
  const { claims = [], volumes = [], classes = [] } = objects;
  return {
    claim: (namespace, name) =>
      claims.find((claim) => claim.metadata?.namespace === namespace && claim.metadata?.name === name),
    volume: (name) => volumes.find((volume) => volume.metadata?.name === name),
    volumes: () => volumes,
    storageClass: (name) => classes.find((storageClass) => storageClass.metadata?.name === name),
  };
}
