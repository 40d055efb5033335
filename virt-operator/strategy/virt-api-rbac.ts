import { CERTIFICATE_SECRETS } from "../../runtime/tls/tls-material.js";
import { CORE_GROUP, type ComponentPermissions, KUBEVIRT_GROUP, type PolicyRule } from "./policy-rule.js";
import { API_SERVICE_ACCOUNT } from "./service-accounts.js";

/**
 * virt-api's permissions: exactly the calls virt-api/ makes. Its reading of the front-proxy
 * settings (kube-system's extension-apiserver-authentication ConfigMap) and its delegated
 * authorization come from the roles Kubernetes provides for that (delegated-auth-bindings.ts).
 */

const AUTHORIZATION_GROUP = "authorization.k8s.io";
const INSTANCETYPE_GROUP = "instancetype.kubevirt.io";
const CDI_GROUP = "cdi.kubevirt.io";

const cluster: PolicyRule[] = [
  {
    // auth/subject-access-review.ts: every subresource request is authorized against its caller.
    apiGroups: [AUTHORIZATION_GROUP],
    resources: ["subjectaccessreviews"],
    verbs: ["create"],
  },
  {
    // subresources/vm-lifecycle-writer.ts: start/stop/restart read the VM and merge-patch its
    // runStrategy (the deprecated `running` where the VM still uses it); portforward on a VM
    // reads it to see its VMI was started (portforward/forward-address.ts); addvolume/removevolume
    // under DeclarativeHotplugVolumes alone merge-patch the template's volumes and disks
    // (subresources/volume-change-writer.ts).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines"],
    verbs: ["get", "patch"],
  },
  {
    // subresources/vm-lifecycle-writer.ts: where the run strategy calls for Start/Stop requests
    // (restart, start under Manual...), they are merge-patched into the status subresource;
    // volume-change-writer.ts queues addvolume/removevolume in status.volumeRequests.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachines/status"],
    verbs: ["patch"],
  },
  {
    // subresources/read-vmi.ts (pause, unpause, console, vnc, guestosinfo, portforward, stop) reads the VMI;
    // vm-lifecycle-writer.ts merge-patches its terminationGracePeriodSeconds for
    // `stop --grace-period` and restores it; volume-change-writer.ts merge-patches a VMI's
    // volumes and disks for addvolume/removevolume on the VMI.
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["virtualmachineinstances"],
    verbs: ["get", "patch"],
  },
  {
    // webhooks/vm-references.ts: the VM admitter reads what a VM references (conflicts with the
    // instancetype, the preference's requirements) ...
    apiGroups: [INSTANCETYPE_GROUP],
    resources: [
      "virtualmachineinstancetypes",
      "virtualmachineclusterinstancetypes",
      "virtualmachinepreferences",
      "virtualmachineclusterpreferences",
    ],
    verbs: ["get"],
  },
  {
    // ... and the VM's stored copy of it, once it has one.
    apiGroups: ["apps"],
    resources: ["controllerrevisions"],
    verbs: ["get"],
  },
  {
    // webhooks/vm-inference.ts: the VM mutator infers an instancetype or preference from the
    // labels of the VM's claim (or of the claim a DataVolume clones) ...
    apiGroups: [CORE_GROUP],
    resources: ["persistentvolumeclaims"],
    verbs: ["get"],
  },
  {
    // ... or of its DataVolume.
    apiGroups: [CDI_GROUP],
    resources: ["datavolumes"],
    verbs: ["get"],
  },
  {
    // portforward/forward-address.ts: a port-forward's address must be a pod IP of the VMI's
    // launcher pod, listed by its `kubevirt.io/created-by` label in the VMI's namespace.
    apiGroups: [CORE_GROUP],
    resources: ["pods"],
    verbs: ["list"],
  },
];

const namespaced: PolicyRule[] = [
  {
    // virt-api.ts: the KubeVirt CR informer of its namespace (config/cluster-settings.ts gives
    // the webhooks the cluster defaults and feature gates).
    apiGroups: [KUBEVIRT_GROUP],
    resources: ["kubevirts"],
    verbs: ["list", "watch"],
  },
  {
    // handler/handler-locator.ts: lists the virt-handler pods (by label) to find a VMI's node's.
    apiGroups: [CORE_GROUP],
    resources: ["pods"],
    verbs: ["list"],
  },
  {
    // virt-api.ts: runtime/tls/secret-tls-source.ts follows its serving certificate and its
    // client certificate towards virt-handler, each with an informer pinned by
    // `fieldSelector=metadata.name=` (list, watch), which RBAC authorizes against resourceNames.
    apiGroups: [CORE_GROUP],
    resources: ["secrets"],
    verbs: ["list", "watch"],
    resourceNames: [CERTIFICATE_SECRETS.apiServer, CERTIFICATE_SECRETS.handlerClient],
  },
];

export const API_PERMISSIONS: ComponentPermissions = {
  name: "kubevirt-apiserver",
  serviceAccount: API_SERVICE_ACCOUNT,
  cluster,
  namespaced,
};
