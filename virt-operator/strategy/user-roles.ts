import { KUBEVIRT_GROUP, type PolicyRule, SUBRESOURCES_GROUP } from "./policy-rule.js";

/**
 * The user-facing ClusterRoles KubeVirt installs. Their aggregation labels fold them into
 * Kubernetes' own `admin`, `edit` and `view`, so a namespace admin can run VMs without a
 * binding of ours. Nobody is bound to them by the operator.
 */
export interface UserRole {
  readonly name: string;
  readonly aggregateTo: "admin" | "edit" | "view";
  readonly rules: readonly PolicyRule[];
}

/** The kubevirt.io kinds users work with. */
const USER_RESOURCES = [
  "virtualmachines",
  "virtualmachineinstances",
  "virtualmachineinstancereplicasets",
  "virtualmachineinstancemigrations",
];

/** CDI's kinds, which kubevirt-ts serves itself (CDI's own cdi.kubevirt.io:* roles aggregate them so). */
const CDI_GROUP = "cdi.kubevirt.io";
const CDI_RESOURCES = ["datavolumes"];

/** KubeVirt's pools; `/scale` so that `kubectl scale vmpool` works for whoever may edit them. */
const POOL_GROUP = "pool.kubevirt.io";
const POOL_RESOURCES = ["virtualmachinepools"];
const POOL_SCALE_RULE: PolicyRule = {
  apiGroups: [POOL_GROUP],
  resources: ["virtualmachinepools/scale"],
  verbs: ["get", "update", "patch"],
};

/** instancetype.kubevirt.io: admin and edit manage the namespaced kinds, everyone of them reads all four. */
const INSTANCETYPE_GROUP = "instancetype.kubevirt.io";
const NAMESPACED_INSTANCETYPE_RESOURCES = ["virtualmachineinstancetypes", "virtualmachinepreferences"];
const ALL_INSTANCETYPE_RESOURCES = [
  ...NAMESPACED_INSTANCETYPE_RESOURCES,
  "virtualmachineclusterinstancetypes",
  "virtualmachineclusterpreferences",
];

const READ = ["get", "list", "watch"];
const WRITE = ["create", "update", "patch", "delete"];

/**
 * virtctl expand: a stored VM's expansion is read (GET), a VM sent in the body is expanded (PUT
 * on the namespace's `expand-vm-spec`). Nothing is written, so KubeVirt's view role has both too.
 */
const EXPAND_RULES: PolicyRule[] = [
  { apiGroups: [SUBRESOURCES_GROUP], resources: ["virtualmachines/expand-spec"], verbs: ["get"] },
  { apiGroups: [SUBRESOURCES_GROUP], resources: ["expand-vm-spec"], verbs: ["update"] },
];

/**
 * virtctl console / vnc / port-forward (WebSocket GETs), guestosinfo / userlist / fslist (GETs) and
 * pause/unpause/start/stop/restart/addvolume/removevolume (PUTs), on virt-api's group.
 * port-forward and the volume subresources are KubeVirt's on both VMIs and VMs.
 */
const SUBRESOURCE_RULES: PolicyRule[] = [
  {
    apiGroups: [SUBRESOURCES_GROUP],
    resources: [
      "virtualmachineinstances/console",
      "virtualmachineinstances/vnc",
      "virtualmachineinstances/portforward",
      "virtualmachineinstances/guestosinfo",
      "virtualmachineinstances/userlist",
      "virtualmachineinstances/filesystemlist",
      "virtualmachines/portforward",
    ],
    verbs: ["get"],
  },
  {
    apiGroups: [SUBRESOURCES_GROUP],
    resources: ["virtualmachineinstances/pause", "virtualmachineinstances/unpause"],
    verbs: ["update"],
  },
  {
    apiGroups: [SUBRESOURCES_GROUP],
    resources: ["virtualmachines/start", "virtualmachines/stop", "virtualmachines/restart"],
    verbs: ["update"],
  },
  ...EXPAND_RULES,
  {
    // virtctl addvolume / removevolume: on the VM (kept in it) or on a VMI of its own.
    apiGroups: [SUBRESOURCES_GROUP],
    resources: [
      "virtualmachines/addvolume",
      "virtualmachines/removevolume",
      "virtualmachineinstances/addvolume",
      "virtualmachineinstances/removevolume",
    ],
    verbs: ["update"],
  },
];

export const USER_ROLES: readonly UserRole[] = [
  {
    name: "kubevirt.io:admin",
    aggregateTo: "admin",
    rules: [
      ...SUBRESOURCE_RULES,
      {
        apiGroups: [KUBEVIRT_GROUP],
        resources: USER_RESOURCES,
        verbs: [...READ, ...WRITE, "deletecollection"],
      },
      { apiGroups: [CDI_GROUP], resources: CDI_RESOURCES, verbs: [...READ, ...WRITE, "deletecollection"] },
      {
        apiGroups: [INSTANCETYPE_GROUP],
        resources: NAMESPACED_INSTANCETYPE_RESOURCES,
        verbs: [...READ, ...WRITE, "deletecollection"],
      },
      { apiGroups: [INSTANCETYPE_GROUP], resources: ALL_INSTANCETYPE_RESOURCES, verbs: READ },
      { apiGroups: [POOL_GROUP], resources: POOL_RESOURCES, verbs: [...READ, ...WRITE, "deletecollection"] },
      POOL_SCALE_RULE,
    ],
  },
  {
    name: "kubevirt.io:edit",
    aggregateTo: "edit",
    rules: [
      ...SUBRESOURCE_RULES,
      { apiGroups: [KUBEVIRT_GROUP], resources: USER_RESOURCES, verbs: [...READ, ...WRITE] },
      { apiGroups: [CDI_GROUP], resources: CDI_RESOURCES, verbs: [...READ, ...WRITE] },
      {
        apiGroups: [INSTANCETYPE_GROUP],
        resources: NAMESPACED_INSTANCETYPE_RESOURCES,
        verbs: [...READ, ...WRITE],
      },
      { apiGroups: [INSTANCETYPE_GROUP], resources: ALL_INSTANCETYPE_RESOURCES, verbs: READ },
      { apiGroups: [POOL_GROUP], resources: POOL_RESOURCES, verbs: [...READ, ...WRITE] },
      POOL_SCALE_RULE,
    ],
  },
  {
    name: "kubevirt.io:view",
    aggregateTo: "view",
    rules: [
      ...EXPAND_RULES,
      // As KubeVirt's view role: what the guest agent reports is readable by whoever may read the VMI.
      {
        apiGroups: [SUBRESOURCES_GROUP],
        resources: [
          "virtualmachineinstances/guestosinfo",
          "virtualmachineinstances/userlist",
          "virtualmachineinstances/filesystemlist",
        ],
        verbs: ["get"],
      },
      { apiGroups: [KUBEVIRT_GROUP], resources: USER_RESOURCES, verbs: READ },
      { apiGroups: [CDI_GROUP], resources: CDI_RESOURCES, verbs: READ },
      { apiGroups: [INSTANCETYPE_GROUP], resources: ALL_INSTANCETYPE_RESOURCES, verbs: READ },
      { apiGroups: [POOL_GROUP], resources: POOL_RESOURCES, verbs: READ },
    ],
  },
];

/**
 * KubeVirt's `instancetype.kubevirt.io:view`: the cluster-wide instancetypes and preferences are
 * a catalogue every authenticated user may read (to pick a size for `virtctl create vm`), so this
 * role, unlike the ones above, is bound, to `system:authenticated`.
 */
export const INSTANCETYPE_VIEW_ROLE = {
  name: "instancetype.kubevirt.io:view",
  group: "system:authenticated",
  rules: [
    {
      apiGroups: [INSTANCETYPE_GROUP],
      resources: ["virtualmachineclusterinstancetypes", "virtualmachineclusterpreferences"],
      verbs: READ,
    },
  ] satisfies PolicyRule[],
} as const;
