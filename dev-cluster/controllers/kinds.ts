/**
 * The built-in kinds the workload controllers read and write, described for the runtime. The
 * object types come from kubernetes-models (types only: nothing of it is loaded at run time).
 */
import type { IDaemonSet } from "kubernetes-models/apps/v1/DaemonSet";
import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import type { IReplicaSet } from "kubernetes-models/apps/v1/ReplicaSet";
import type { IEndpointSlice } from "kubernetes-models/discovery.k8s.io/v1/EndpointSlice";
import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import type { IEndpoints } from "kubernetes-models/v1/Endpoints";
import type { INode } from "kubernetes-models/v1/Node";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { IPodTemplateSpec } from "kubernetes-models/v1/PodTemplateSpec";
import type { IService } from "kubernetes-models/v1/Service";
import type { IServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { defineKind, type Namespace } from "../../runtime/index.js";

// The core kinds are declared once, in the runtime.
export { namespaceKind, nodeKind, persistentVolumeClaimKind, podKind } from "../../runtime/index.js";

export type Deployment = IDeployment;
export type ReplicaSet = IReplicaSet;
export type DaemonSet = IDaemonSet;
export type Pod = IPod;
export type PodTemplate = IPodTemplateSpec;
export type Node = INode;
export type Service = IService;
export type Endpoints = IEndpoints;
export type EndpointSlice = IEndpointSlice;
export type ServiceAccount = IServiceAccount;
export type PersistentVolume = IPersistentVolume;
export type PersistentVolumeClaim = IPersistentVolumeClaim;
export type StorageClass = IStorageClass;
export type { Namespace };

const apps = { group: "apps", version: "v1", namespaced: true } as const;
const core = { group: "", version: "v1" } as const;

export const deploymentKind = defineKind<Deployment>({ ...apps, kind: "Deployment", plural: "deployments" });
export const replicaSetKind = defineKind<ReplicaSet>({ ...apps, kind: "ReplicaSet", plural: "replicasets" });
export const daemonSetKind = defineKind<DaemonSet>({ ...apps, kind: "DaemonSet", plural: "daemonsets" });
export const serviceKind = defineKind<Service>({
  ...core,
  kind: "Service",
  plural: "services",
  namespaced: true,
});
export const endpointsKind = defineKind<Endpoints>({
  ...core,
  kind: "Endpoints",
  plural: "endpoints",
  namespaced: true,
});
export const endpointSliceKind = defineKind<EndpointSlice>({
  group: "discovery.k8s.io",
  version: "v1",
  kind: "EndpointSlice",
  plural: "endpointslices",
  namespaced: true,
});
export const serviceAccountKind = defineKind<ServiceAccount>({
  ...core,
  kind: "ServiceAccount",
  plural: "serviceaccounts",
  namespaced: true,
});

// The storage kinds are declared once, in the runtime.
export { persistentVolumeKind, storageClassKind } from "../../runtime/index.js";
