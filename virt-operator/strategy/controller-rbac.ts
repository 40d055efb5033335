import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import {
  COORDINATION_GROUP,
  CORE_GROUP,
  type ComponentPermissions,
  KUBEVIRT_GROUP,
  type PolicyRule,
} from "./policy-rule.js";
import { CONTROLLER_SERVICE_ACCOUNT } from "./service-accounts.js";

const POOL_GROUP = "pool.kubevirt.io";

/**
 * virt-controller's permissions: exactly the calls virt-controller/ makes (informers list and
 * watch; each write names its verb). Re-read virt-controller/ when it starts calling something
 * new: a missing verb shows up as a 403 in its log, a superfluous one nowhere.
 */

const cluster: PolicyRule[] = [
  {
    // vm/: the VM informer (list, watch); vm-reconciler.ts #switchToAlways merge-patches the spec
    // (a Start request under Halted).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines"],
    verbs: ["list", "watch", "patch"],
  },
  {
    // pool/pool-reconciler.ts: the pool's VMs (<pool>-<index>): created, updated when the pool's
    // template changes, deleted on scale-in, their finalizer removed by JSON patch.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines"],
    verbs: ["create", "update", "delete"],
  },
  {
    // pool/: the pool informer (list, watch); pool-reconciler.ts patches the pool's finalizer and
    // writes its status (replicas, readyReplicas, labelSelector, conditions).
    apiGroups: [POOL_GROUP],
    resources: ["virtualmachinepools"],
    verbs: ["list", "watch", "patch"],
  },
  {
    apiGroups: [POOL_GROUP],
    resources: ["virtualmachinepools/status"],
    verbs: ["update"],
  },
  {
    // vm/vm-reconciler.ts #writeStatus: updateStatus (PUT .../virtualmachines/NAME/status).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines/status"],
    verbs: ["update"],
  },
  {
    // The VMI informer shared by the VM and VMI controllers and the phase metrics (list, watch);
    // vm/vm-reconciler.ts creates and deletes a VM's VMI, replicaset/replica-changes.ts a
    // replica set's; vmi/vmi-reconciler.ts #write updates
    // the whole VMI (its CRD has no status subresource).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstances"],
    verbs: ["list", "watch", "create", "update", "delete"],
  },
  {
    // replicaset/: the replica set informer (list, watch); replica-set-reconciler.ts reads the
    // replica set from the API (get) before adopting a VMI.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstancereplicasets"],
    verbs: ["get", "list", "watch"],
  },
  {
    // replicaset/replica-set-reconciler.ts #writeStatus: updateStatus (PUT .../status).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstancereplicasets/status"],
    verbs: ["update"],
  },
  {
    // replicaset/claim-vmis.ts: adopting and releasing a VMI are JSON patches of its ownerReferences.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstances"],
    verbs: ["patch"],
  },
  {
    // config/cluster-config.ts: the KubeVirt CR informer. It is not restricted to --namespace
    // (the runtime's informers are cluster-wide unless the whole cache is), so a Role would not do.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts"],
    verbs: ["list", "watch"],
  },
  {
    // vmi/: the launcher pod informer (list, watch, by label); vmi-reconciler.ts creates a VMI's
    // launcher pod, deletes it once the VMI is final.
    apiGroups: [CORE_GROUP],
    resources: ["pods"],
    verbs: ["list", "watch", "create", "delete"],
  },
  {
    // datavolume/data-volume-reconciler.ts: reads its importer pod (importer-<name>) by name; importer
    // pods are not watched (a running import is polled).
    apiGroups: [CORE_GROUP],
    resources: ["pods"],
    verbs: ["get"],
  },
  {
    // vmi/claim-check.ts, vm/vm-reconciler.ts: the claims VMs' disks live on (list, watch): a VMI
    // waits for a missing or busy claim; a VM shows WaitingForVolumeBinding while one is unbound.
    apiGroups: [CORE_GROUP],
    resources: ["persistentvolumeclaims"],
    verbs: ["list", "watch"],
  },
  {
    // datavolume/data-volume-reconciler.ts: a DataVolume's claim, owned by it.
    apiGroups: [CORE_GROUP],
    resources: ["persistentvolumeclaims"],
    verbs: ["create"],
  },
  {
    // datavolume/: the DataVolumes it fills (CDI's part), and vm/: those a VM's dataVolumeTemplates make.
    apiGroups: ["cdi.kubevirt.io"],
    resources: ["datavolumes"],
    verbs: ["get", "list", "watch", "create"],
  },
  {
    // datavolume/data-volume-reconciler.ts: phase, progress, conditions.
    apiGroups: ["cdi.kubevirt.io"],
    resources: ["datavolumes/status"],
    verbs: ["update"],
  },
  {
    // vm/instancetype-sources.ts: the informers of what VMs reference (list, watch).
    apiGroups: ["instancetype.kubevirt.io"],
    resources: [
      "virtualmachineinstancetypes",
      "virtualmachineclusterinstancetypes",
      "virtualmachinepreferences",
      "virtualmachineclusterpreferences",
    ],
    verbs: ["list", "watch"],
  },
  {
    // vm/instancetype-references.ts: a VM's copies of its instancetype and preference (the
    // informer lists and watches; a revision not in the cache yet is read; each is created once).
    apiGroups: ["apps"],
    resources: ["controllerrevisions"],
    verbs: ["get", "list", "watch", "create"],
  },
  {
    // vmi/service-account-pull-secrets.ts: the launcher pod's service account's imagePullSecrets,
    // read once when the pod is created.
    apiGroups: [CORE_GROUP],
    resources: ["serviceaccounts"],
    verbs: ["get"],
  },
  {
    // runtime's EventRecorder (manager.events): creates Events in the VM's or VMI's namespace,
    // merge-patches their count on a repeat.
    apiGroups: [CORE_GROUP],
    resources: ["events"],
    verbs: ["create", "patch"],
  },
];

const namespaced: PolicyRule[] = [
  {
    // runtime's LeaderElector (main.ts: leaderElection in --namespace): reads, creates and renews
    // the `virt-controller` Lease.
    apiGroups: [COORDINATION_GROUP],
    resources: ["leases"],
    verbs: ["get", "create", "update"],
  },
  {
    // main.ts metrics: runtime/manager/metrics-server.ts serves /metrics with its certificate,
    // which runtime/tls/secret-tls-source.ts follows with an informer pinned by
    // `fieldSelector=metadata.name=` (list, watch), which RBAC authorizes against resourceNames.
    apiGroups: [CORE_GROUP],
    resources: ["secrets"],
    verbs: ["list", "watch"],
    resourceNames: [CERTIFICATE_SECRETS.controllerServer],
  },
];

export const CONTROLLER_PERMISSIONS: ComponentPermissions = {
  name: "kubevirt-controller",
  serviceAccount: CONTROLLER_SERVICE_ACCOUNT,
  cluster,
  namespaced,
};
