import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { CORE_GROUP, type ComponentPermissions, KUBEVIRT_GROUP, type PolicyRule } from "./policy-rule.js";
import { HANDLER_SERVICE_ACCOUNT } from "./service-accounts.js";

/**
 * virt-handler's permissions: exactly the calls virt-handler/ makes. It is not leader-elected
 * (one per node); in the install namespace it reads its serving certificate only.
 */

const cluster: PolicyRule[] = [
  {
    // main.ts: the VMI informer of its node (list, watch by label); vmi/vmi-reconciler.ts reads
    // the live VMI before it acts (get) and writes it whole (update: no status subresource).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstances"],
    verbs: ["get", "list", "watch", "update"],
  },
  {
    // main.ts and config/cluster-config.ts: the KubeVirt CR informer, cluster-wide (see
    // controller-rbac.ts).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts"],
    verbs: ["list", "watch"],
  },
  {
    // main.ts: the pod informer of its node (list, watch by spec.nodeName); vmi/launcher-pod.ts
    // lists a VMI's launcher pods when the cache has none.
    apiGroups: [CORE_GROUP],
    resources: ["pods"],
    verbs: ["list", "watch"],
  },
  {
    // vmi/launcher-pod-volumes.ts: a launcher pod's claim, for the PersistentVolume the kubelet
    // mounted it as (its spec.volumeName) and its size, when a VM on a claim starts.
    apiGroups: [CORE_GROUP],
    resources: ["persistentvolumeclaims"],
    verbs: ["get"],
  },
  {
    // node/node-heartbeat.ts: merge-patches its Node's heartbeat annotation and schedulable label.
    apiGroups: [CORE_GROUP],
    resources: ["nodes"],
    verbs: ["patch"],
  },
  {
    // node/node-heartbeat.ts: merge-patches the KVM device into the Node's capacity/allocatable.
    apiGroups: [CORE_GROUP],
    resources: ["nodes/status"],
    verbs: ["patch"],
  },
  {
    // runtime's EventRecorder (vmi/vmi-reconciler.ts): Events on VMIs, created then count-patched.
    apiGroups: [CORE_GROUP],
    resources: ["events"],
    verbs: ["create", "patch"],
  },
];

const namespaced: PolicyRule[] = [
  {
    // main.ts serveConsoles and the manager's metrics server: runtime/tls/secret-tls-source.ts
    // follows the serving certificate of both with an informer pinned by
    // `fieldSelector=metadata.name=` (list, watch), which RBAC authorizes against resourceNames:
    // no other Secret is readable.
    apiGroups: [CORE_GROUP],
    resources: ["secrets"],
    verbs: ["list", "watch"],
    resourceNames: [CERTIFICATE_SECRETS.handlerServer],
  },
];

export const HANDLER_PERMISSIONS: ComponentPermissions = {
  name: "kubevirt-handler",
  serviceAccount: HANDLER_SERVICE_ACCOUNT,
  cluster,
  namespaced,
};
