/**
 * KubeVirt's admission webhooks as a contract between the two components that must agree on
 * them without importing each other: virt-api serves every path below, virt-operator renders the
 * MutatingWebhookConfiguration and ValidatingWebhookConfiguration that send requests there.
 * The names are KubeVirt's: they appear in the API server's message, e.g. `admission webhook
 * "virtualmachine-validator.kubevirt.io" denied the request: ...`.
 */

/** KubeVirt's configuration names. */
export const MUTATING_WEBHOOK_CONFIGURATION = "virt-api-mutator";
export const VALIDATING_WEBHOOK_CONFIGURATION = "virt-api-validator";

export const WEBHOOK_PATHS = {
  vmMutate: "/virtualmachines-mutate",
  vmiMutate: "/virtualmachineinstances-mutate",
  vmirsMutate: "/virtualmachinereplicaset-mutate",
  vmValidate: "/virtualmachines-validate",
  vmiValidate: "/virtualmachineinstances-validate",
  vmirsValidate: "/virtualmachinereplicaset-validate",
  kubevirtValidate: "/kubevirt-validate",
  dataVolumeValidate: "/datavolume-validate",
  vmPoolValidate: "/virtualmachinepool-validate",
  instancetypeValidate: "/virtualmachineinstancetypes-validate",
  clusterInstancetypeValidate: "/virtualmachineclusterinstancetypes-validate",
  preferenceValidate: "/virtualmachinepreferences-validate",
  clusterPreferenceValidate: "/virtualmachineclusterpreferences-validate",
} as const;

export type WebhookPath = (typeof WEBHOOK_PATHS)[keyof typeof WEBHOOK_PATHS];

/** The instancetype.kubevirt.io/v1beta1 resources (KubeVirt validates each kind with a webhook of its own). */
const INSTANCETYPE_RESOURCES = [
  "virtualmachineinstancetypes",
  "virtualmachineclusterinstancetypes",
  "virtualmachinepreferences",
  "virtualmachineclusterpreferences",
] as const;
type InstancetypeResource = (typeof INSTANCETYPE_RESOURCES)[number];

export interface AdmissionWebhook {
  readonly type: "mutating" | "validating";
  /** The webhook's name in its configuration. */
  readonly name: string;
  readonly path: WebhookPath;
  /** The resource its rule matches: kubevirt.io/v1, or CDI's cdi.kubevirt.io/v1beta1 DataVolumes. */
  readonly resource:
    | "virtualmachines"
    | "virtualmachineinstances"
    | "virtualmachineinstancereplicasets"
    | "kubevirts"
    | "datavolumes"
    | "virtualmachinepools"
    | InstancetypeResource;
  readonly operations: readonly ("CREATE" | "UPDATE")[];
}

export const ADMISSION_WEBHOOKS: readonly AdmissionWebhook[] = [
  {
    type: "mutating",
    name: "virtualmachines-mutator.kubevirt.io",
    path: WEBHOOK_PATHS.vmMutate,
    resource: "virtualmachines",
    operations: ["CREATE", "UPDATE"],
  },
  {
    type: "mutating",
    name: "virtualmachineinstances-mutator.kubevirt.io",
    path: WEBHOOK_PATHS.vmiMutate,
    resource: "virtualmachineinstances",
    // KubeVirt defaults a VMI once, when it is created: an update must not change what a
    // running VM was given.
    operations: ["CREATE"],
  },
  {
    type: "mutating",
    name: "virtualmachinereplicaset-mutator.kubevirt.io",
    path: WEBHOOK_PATHS.vmirsMutate,
    resource: "virtualmachineinstancereplicasets",
    operations: ["CREATE", "UPDATE"],
  },
  {
    type: "validating",
    name: "virtualmachine-validator.kubevirt.io",
    path: WEBHOOK_PATHS.vmValidate,
    resource: "virtualmachines",
    operations: ["CREATE", "UPDATE"],
  },
  {
    type: "validating",
    name: "virtualmachineinstances-create-validator.kubevirt.io",
    path: WEBHOOK_PATHS.vmiValidate,
    resource: "virtualmachineinstances",
    operations: ["CREATE"],
  },
  {
    type: "validating",
    name: "virtualmachineinstances-update-validator.kubevirt.io",
    path: WEBHOOK_PATHS.vmiValidate,
    resource: "virtualmachineinstances",
    operations: ["UPDATE"],
  },
  {
    type: "validating",
    name: "virtualmachinereplicaset-validator.kubevirt.io",
    path: WEBHOOK_PATHS.vmirsValidate,
    resource: "virtualmachineinstancereplicasets",
    operations: ["CREATE", "UPDATE"],
  },
  {
    type: "validating",
    name: "kubevirt-update-validator.kubevirt.io",
    path: WEBHOOK_PATHS.kubevirtValidate,
    resource: "kubevirts",
    operations: ["CREATE", "UPDATE"],
  },
  {
    // CDI's own validator has this name; kubevirt-ts serves DataVolumes itself.
    type: "validating",
    name: "datavolume-validate.cdi.kubevirt.io",
    path: WEBHOOK_PATHS.dataVolumeValidate,
    resource: "datavolumes",
    operations: ["CREATE", "UPDATE"],
  },
  {
    type: "validating",
    name: "virtualmachinepool-validator.kubevirt.io",
    path: WEBHOOK_PATHS.vmPoolValidate,
    resource: "virtualmachinepools",
    operations: ["CREATE", "UPDATE"],
  },
  ...(
    [
      ["virtualmachineinstancetype", WEBHOOK_PATHS.instancetypeValidate],
      ["virtualmachineclusterinstancetype", WEBHOOK_PATHS.clusterInstancetypeValidate],
      ["virtualmachinepreference", WEBHOOK_PATHS.preferenceValidate],
      ["virtualmachineclusterpreference", WEBHOOK_PATHS.clusterPreferenceValidate],
    ] as const
  ).map(
    ([singular, path]): AdmissionWebhook => ({
      // KubeVirt's names: virtualmachineinstancetype-validator.instancetype.kubevirt.io, ...
      type: "validating",
      name: `${singular}-validator.instancetype.kubevirt.io`,
      path,
      resource: `${singular}s`,
      operations: ["CREATE", "UPDATE"],
    }),
  ),
];

/** The API group and version of the resource a webhook's rule matches. */
export function webhookRuleGroup(webhook: AdmissionWebhook): { group: string; version: string } {
  if (webhook.resource === "virtualmachinepools") return { group: "pool.kubevirt.io", version: "v1beta1" };
  if ((INSTANCETYPE_RESOURCES as readonly string[]).includes(webhook.resource)) {
    return { group: "instancetype.kubevirt.io", version: "v1beta1" };
  }
  return webhook.resource === "datavolumes"
    ? { group: "cdi.kubevirt.io", version: "v1beta1" }
    : { group: "kubevirt.io", version: "v1" };
}
