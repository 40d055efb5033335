/** Well-known names KubeVirt puts on VMIs, their pods and nodes (`types.go`). */

export const VMI_CONDITION_TYPES = {
  provisioning: "Provisioning",
  ready: "Ready",
  synchronized: "Synchronized",
  paused: "Paused",
  agentConnected: "AgentConnected",
  accessCredentialsSynchronized: "AccessCredentialsSynchronized",
  unsupportedAgent: "AgentVersionNotSupported",
  liveMigratable: "LiveMigratable",
  storageLiveMigratable: "StorageLiveMigratable",
  dataVolumesReady: "DataVolumesReady",
  migrationRequired: "MigrationRequired",
  evictionRequested: "EvictionRequested",
  softwareEmulation: "SoftwareEmulation",
} as const;

/** Reasons of a Ready=False condition. */
export const VMI_READY_REASONS = {
  podTerminating: "PodTerminating",
  podNotExists: "PodNotExists",
  podConditionMissing: "PodConditionMissing",
  guestNotRunning: "GuestNotRunning",
} as const;

export const LABELS = {
  /** On the launcher pod: the VMI's UID. */
  createdBy: "kubevirt.io/created-by",
  /** On the VMI: the node it runs on. */
  nodeName: "kubevirt.io/nodeName",
  /** On the VMI created by a VM: the VM's name. */
  vm: "kubevirt.io/vm",
  /** On nodes: whether VMIs may be scheduled there. */
  nodeSchedulable: "kubevirt.io/schedulable",
  app: "kubevirt.io",
  migrationJob: "kubevirt.io/migrationJobUID",
  migrationTargetNodeName: "kubevirt.io/migrationTargetNodeName",
} as const;

export const ANNOTATIONS = {
  /** On the launcher pod: the VMI's domain name. */
  domain: "kubevirt.io/domain",
  /** On nodes: virt-handler's heartbeat timestamp. */
  heartbeat: "kubevirt.io/heartbeat",
} as const;

export const FINALIZERS = {
  /** On every VMI while virt-controller must clean up after it. */
  vmi: "kubevirt.io/foregroundDeleteVirtualMachine",
  /** The older spelling, still honoured. */
  vmiDeprecated: "foregroundDeleteVirtualMachine",
  /** On a VMI owned by a VM. */
  vmController: "kubevirt.io/virtualMachineControllerFinalize",
  migration: "kubevirt.io/migrationJobFinalize",
  kubevirtOperator: "kubevirt.io/virtOperatorFinalizer",
} as const;
