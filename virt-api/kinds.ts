/**
 * The kinds virt-api reads and writes, described for the runtime. kubevirt.io types and names
 * come from api/; core/v1 types from kubernetes-models (types only: nothing of it loads at run time).
 */
import type { IConfigMap } from "kubernetes-models/v1/ConfigMap";
import type { IPod } from "kubernetes-models/v1/Pod";
import { defineKind, type KubeObject } from "../runtime/index.js";

export {
  kubeVirtKind,
  type StoredKubeVirt as KubeVirt,
  type StoredVirtualMachine as VirtualMachine,
  type StoredVirtualMachineInstance as VirtualMachineInstance,
  type StoredVirtualMachineInstanceReplicaSet as VirtualMachineInstanceReplicaSet,
  vmiKind,
  vmKind,
} from "../api/index.js";
export { podKind } from "../runtime/index.js";
export type Pod = IPod;
export type ConfigMap = IConfigMap;

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
