/**
 * The core/v1 and storage.k8s.io/v1 kinds the scheduler reads and writes, described for the runtime. Object types come
 * from kubernetes-models (types only: nothing of it is loaded at run time), so every field is the
 * wire JSON form.
 */

import type { IStorageClass } from "kubernetes-models/storage.k8s.io/v1/StorageClass";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { INode } from "kubernetes-models/v1/Node";
import type { INodeSelectorRequirement } from "kubernetes-models/v1/NodeSelectorRequirement";
import type { INodeSelectorTerm } from "kubernetes-models/v1/NodeSelectorTerm";
import type { IPersistentVolume } from "kubernetes-models/v1/PersistentVolume";
import type { IPersistentVolumeClaim } from "kubernetes-models/v1/PersistentVolumeClaim";
import type { IPod } from "kubernetes-models/v1/Pod";
import type { IPodCondition } from "kubernetes-models/v1/PodCondition";
import type { ITaint } from "kubernetes-models/v1/Taint";
import type { IToleration } from "kubernetes-models/v1/Toleration";

// The core kinds are declared once, in the runtime.
export { nodeKind, podKind } from "../../runtime/index.js";

export type Pod = IPod;
export type Node = INode;
export type Container = IContainer;
export type Taint = ITaint;
export type Toleration = IToleration;
export type NodeSelectorTerm = INodeSelectorTerm;
export type NodeSelectorRequirement = INodeSelectorRequirement;
export type PodCondition = IPodCondition;
export type PersistentVolumeClaim = IPersistentVolumeClaim;
export type PersistentVolume = IPersistentVolume;
export type StorageClass = IStorageClass;

// The storage kinds are declared once, in the runtime.
export { persistentVolumeClaimKind, persistentVolumeKind, storageClassKind } from "../../runtime/index.js";
