/**
 * The built-in kinds the node agent reads and writes, described for the runtime. The object
 * types come from kubernetes-models (types only: nothing of it is loaded at run time).
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IContainerState } from "kubernetes-models/v1/ContainerState";
import type { IContainerStatus } from "kubernetes-models/v1/ContainerStatus";
import type { INode } from "kubernetes-models/v1/Node";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { IPodCondition } from "kubernetes-models/v1/PodCondition";
import type { IPodStatus } from "kubernetes-models/v1/PodStatus";
import type { IProbe } from "kubernetes-models/v1/Probe";
import type { ISecret } from "kubernetes-models/v1/Secret";
import type { IVolume } from "kubernetes-models/v1/Volume";
import { defineKind, type Frozen } from "../../runtime/index.js";

// The core kinds are declared once, in the runtime.
export { nodeKind, persistentVolumeClaimKind, podKind } from "../../runtime/index.js";

export type Pod = IPod;
export type PodStatus = IPodStatus;
export type PodCondition = IPodCondition;
export type Container = IContainer;
export type ContainerStatus = IContainerStatus;
export type ContainerState = IContainerState;
export type Probe = IProbe;
export type Volume = IVolume;
export type Node = INode;
export type ConfigMap = IConfigMap;
export type Secret = ISecret;
export type PersistentVolumeClaim = IPersistentVolumeClaim;
export type PersistentVolume = IPersistentVolume;

/** A pod as the informer cache hands it out. */
export type CachedPod = Frozen<Pod>;

const core = { group: "", version: "v1" } as const;

export const configMapKind = defineKind<ConfigMap>({
  ...core,
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
});
export const secretKind = defineKind<Secret>({
  ...core,
  kind: "Secret",
  plural: "secrets",
  namespaced: true,
});

export const persistentVolumeKind = defineKind<PersistentVolume>({
  ...core,
  kind: "PersistentVolume",
  plural: "persistentvolumes",
  namespaced: false,
});

/** Identity of a pod as the agent tracks it: uid first, since names are reused. */
export interface PodIdentity {
  uid: string;
  namespace: string;
  name: string;
}

export function podIdentity(pod: CachedPod): PodIdentity {
  const uid = pod.metadata?.uid;
  const name = pod.metadata?.name;
  const namespace = pod.metadata?.namespace;
  if (!uid || !name || !namespace) throw new Error("a pod without uid, name or namespace cannot be run");
  return { uid, namespace, name };
}
