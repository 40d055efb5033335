/**
 * The kinds virt-api reads and writes, described for the runtime. kubevirt.io types come from
 * api/; core/v1 types from kubernetes-models (types only: nothing of it loads at run time).
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IPod } from "kubernetes-models/v1/Pod";
import {
  type KubeVirt as ApiKubeVirt,
  type VirtualMachine as ApiVirtualMachine,
  type VirtualMachineInstance as ApiVirtualMachineInstance,
  type VirtualMachineInstanceReplicaSet as ApiVirtualMachineInstanceReplicaSet,
  GROUP,
  KubeVirtKind,
  VERSION,
  VirtualMachineInstanceKind,
  VirtualMachineKind,
} from "../api/index.js";
import { defineKind, type KubeObject, type ObjectMeta } from "../runtime/index.js";

/**
 * api/ types metadata as the CRD schema allows it (nullable timestamps); the API server returns
 * the stored shape. Ours passes to every api/ function unchanged.
 */
type WithStoredMetadata<T> = Omit<T, "metadata"> & { metadata?: ObjectMeta };

export type VirtualMachine = WithStoredMetadata<ApiVirtualMachine>;
export type VirtualMachineInstance = WithStoredMetadata<ApiVirtualMachineInstance>;
export type VirtualMachineInstanceReplicaSet = WithStoredMetadata<ApiVirtualMachineInstanceReplicaSet>;
export type KubeVirt = WithStoredMetadata<ApiKubeVirt>;
export type Pod = IPod;
export type ConfigMap = IConfigMap;

const kubevirtGroup = { group: GROUP, version: VERSION, namespaced: true } as const;

export const vmKind = defineKind<VirtualMachine>({
  ...kubevirtGroup,
  kind: VirtualMachineKind.kind,
  plural: VirtualMachineKind.plural,
});

export const vmiKind = defineKind<VirtualMachineInstance>({
  ...kubevirtGroup,
  kind: VirtualMachineInstanceKind.kind,
  plural: VirtualMachineInstanceKind.plural,
});

export const kubeVirtKind = defineKind<KubeVirt>({
  ...kubevirtGroup,
  kind: KubeVirtKind.kind,
  plural: KubeVirtKind.plural,
});

export const podKind = defineKind<Pod>({
  group: "",
  version: "v1",
  kind: "Pod",
  plural: "pods",
  namespaced: true,
});

export const configMapKind = defineKind<ConfigMap>({
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
});

/** authorization.k8s.io/v1 SubjectAccessReview, as far as virt-api asks one. */
export interface SubjectAccessReview extends KubeObject {
  spec: {
    user: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
    resourceAttributes: {
      namespace: string;
      verb: string;
      group: string;
      version?: string;
      resource: string;
      subresource: string;
      name: string;
    };
  };
  status?: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

export const subjectAccessReviewKind = defineKind<SubjectAccessReview>({
  group: "authorization.k8s.io",
  version: "v1",
  kind: "SubjectAccessReview",
  plural: "subjectaccessreviews",
  namespaced: false,
});
