/**
 * kubevirt.io/v1 for kubevirt-ts: one TypeBox schema per kind gives the TypeScript type, the
 * shape validator and the CRD schema; defaults and semantic validation are pure functions.
 *
 *   import { VirtualMachineKind, type VirtualMachine, defaultVirtualMachine, validateVirtualMachine } from "../api/index.js";
 */

// The runtime's one quantity grammar, re-exported so api/'s public Quantity stays.
export { Quantity, type QuantityFormat, QuantityParseError } from "../runtime/quantity/quantity.js";
export {
  ADMISSION_WEBHOOKS,
  type AdmissionWebhook,
  MUTATING_WEBHOOK_CONFIGURATION,
  VALIDATING_WEBHOOK_CONFIGURATION,
  WEBHOOK_PATHS,
  type WebhookPath,
  webhookRuleGroup,
} from "./admission/webhook-endpoints.js";
export {
  CDI_FILESYSTEM_OVERHEAD,
  CDI_GROUP,
  CDI_VERSION,
  DATA_VOLUME_PHASES,
  type DataVolume,
  DataVolumeKind,
  type DataVolumePhase,
  type DataVolumeStatus,
} from "./cdi/data-volume.js";
export { type Condition, ConditionSchema, type ConditionStatus } from "./core/condition.js";
export type { LabelSelector } from "./core/label-selector.js";
export type { ObjectMeta, OwnerReference } from "./core/object-meta.js";
export { buildCrd, crdName } from "./crd/crd-builder.js";
export { KUBEVIRT_KINDS } from "./crd/kubevirt-kinds.js";
export { type ClusterDefaults, clusterDefaultsFrom, KUBEVIRT_DEFAULTS } from "./defaults/cluster-defaults.js";
export { legacyFirmwareUuid } from "./defaults/firmware-uuid.js";
export { defaultPullPolicy } from "./defaults/image-pull-policy.js";
export { defaultKubeVirt, defaultVirtualMachineInstanceReplicaSet } from "./defaults/other-defaults.js";
export { defaultVirtualMachine } from "./defaults/vm-defaults.js";
export {
  DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
  defaultVirtualMachineInstance,
  defaultVirtualMachineInstanceSpec,
  withVolumeDisks,
} from "./defaults/vmi-defaults.js";
export { conflictCauses, conflictMessage } from "./instancetype/conflicts.js";
export {
  type ControllerRevision,
  controllerRevisionKind,
  controllerRevisionOf,
  REVISION_LABELS,
  type RevisionContent,
  RevisionDataError,
  revisedObjectOf,
  revisionContentFor,
  revisionName,
  sameRevisedObject,
} from "./instancetype/controller-revision.js";
export { guestCpuTopology, spreadTopologyProblem } from "./instancetype/cpu-topology.js";
export { type ExpandedTemplate, expandVirtualMachine, expandVmTemplate } from "./instancetype/expand-vm.js";
export {
  type Expansion,
  type ExpansionInput,
  expandSpec,
  type ResolvedReference,
} from "./instancetype/expand-vmi.js";
export {
  type AnyInstancetype,
  type AnyPreference,
  INSTANCETYPE_API_VERSION,
  INSTANCETYPE_GROUP,
  INSTANCETYPE_VERSION,
  REFERENCE_KINDS,
  type VirtualMachineClusterInstancetype,
  VirtualMachineClusterInstancetypeKind,
  type VirtualMachineClusterPreference,
  VirtualMachineClusterPreferenceKind,
  type VirtualMachineInstancetype,
  VirtualMachineInstancetypeKind,
  type VirtualMachinePreference,
  VirtualMachinePreferenceKind,
} from "./instancetype/instancetype-kinds.js";
export type { VirtualMachineInstancetypeSpec } from "./instancetype/instancetype-spec.js";
export {
  EXPANSION_ANNOTATIONS,
  instancetypeScopeOf,
  preferenceScopeOf,
  REFERENCE_KIND_NAMES,
  type ReferenceScope,
  unexpectedKindMessage,
} from "./instancetype/matcher-kinds.js";
export {
  PREFERRED_CPU_TOPOLOGIES,
  type PreferredCpuTopology,
  SPREAD_ACROSS,
  type SpreadAcross,
  type VirtualMachinePreferenceSpec,
} from "./instancetype/preference-spec.js";
export {
  API_VERSION,
  GROUP,
  type KindDefinition,
  type KindNames,
  type PrinterColumn,
  VERSION,
} from "./kind.js";
export { activeKubeVirt, byKubeVirtAge, type KubeVirtIdentity } from "./kubevirt/active-kubevirt.js";
export type { KubeVirtConfiguration } from "./kubevirt/configuration.js";
export {
  enabledFeatureGates,
  FEATURE_GATES,
  type FeatureGate,
  featureGateEnabled,
} from "./kubevirt/feature-gates.js";
export { type KubeVirt, KubeVirtKind } from "./kubevirt/kubevirt.js";
export {
  type KubeVirtSpec,
  UNINSTALL_STRATEGIES,
  WORKLOAD_UPDATE_METHODS,
} from "./kubevirt/kubevirt-spec.js";
export {
  KUBEVIRT_CONDITION_TYPES,
  KUBEVIRT_PHASES,
  type KubeVirtPhase,
  type KubeVirtStatus,
} from "./kubevirt/kubevirt-status.js";
export { isKubeVirtServiceAccount, KUBEVIRT_SERVICE_ACCOUNTS } from "./kubevirt/service-accounts.js";
export {
  MIGRATION_PHASES,
  type MigrationPhase,
  type VirtualMachineInstanceMigration,
  VirtualMachineInstanceMigrationKind,
} from "./migration/virtual-machine-instance-migration.js";
export {
  POOL_CONDITION_TYPES,
  POOL_FINALIZER,
  POOL_GROUP,
  POOL_SORT_POLICIES,
  POOL_VERSION,
  type PoolSortPolicy,
  type VirtualMachinePool,
  VirtualMachinePoolKind,
  type VirtualMachinePoolSpec,
  type VirtualMachinePoolStatus,
} from "./pool/virtual-machine-pool.js";
export {
  type VirtualMachineInstanceReplicaSet,
  VirtualMachineInstanceReplicaSetKind,
  VMIRS_CONDITION_TYPES,
} from "./replicaset/virtual-machine-instance-replica-set.js";
export {
  clusterInstancetypeKind,
  clusterPreferenceKind,
  dataVolumeKind,
  instancetypeKind,
  kubeVirtKind,
  preferenceKind,
  type StoredDataVolume,
  type StoredKubeVirt,
  type StoredVirtualMachine,
  type StoredVirtualMachineClusterInstancetype,
  type StoredVirtualMachineClusterPreference,
  type StoredVirtualMachineInstance,
  type StoredVirtualMachineInstanceReplicaSet,
  type StoredVirtualMachineInstancetype,
  type StoredVirtualMachinePool,
  type StoredVirtualMachinePreference,
  vmiKind,
  vmirsKind,
  vmKind,
  vmPoolKind,
} from "./resource-kinds.js";
export type { SchemaValidator } from "./schema/validator.js";
export type { Cause, CauseReason } from "./validation/cause.js";
export { validateDataVolumeSpec } from "./validation/data-volume-validation.js";
export { dns1123LabelErrors } from "./validation/dns-names.js";
export { domainNameFor, MAX_DOMAIN_NAME_BYTES } from "./validation/domain-name-validation.js";
export type { FeatureGateOptions } from "./validation/feature-gates-validation.js";
export { validateHostFacingValues } from "./validation/host-facing-validation.js";
export { validateInstancetype, validatePreference } from "./validation/instancetype-object-validation.js";
export {
  unhonouredInstancetypeCauses,
  unhonouredPreferenceCauses,
  validateInstancetypeSpec,
  validatePreferenceSpec,
} from "./validation/instancetype-validation.js";
export {
  validateDataVolume,
  validateKubeVirt,
  validateVirtualMachine,
  validateVirtualMachineInstance,
  validateVirtualMachineInstanceMigration,
  validateVirtualMachineInstanceReplicaSet,
} from "./validation/object-validation.js";
export {
  type PoolValidationOptions,
  templateLabels,
  validatePoolSelectorUnchanged,
  validateVirtualMachinePool,
} from "./validation/pool-validation.js";
export {
  type ResolvedReferences,
  validateAgainstReferences,
  validateReferenceMatchers,
} from "./validation/vm-references-validation.js";
export { effectiveRunStrategy, type VirtualMachineValidationOptions } from "./validation/vm-validation.js";
export { readVersionInfo, type VersionInfo } from "./version/version-info.js";
export { type VirtualMachine, VirtualMachineKind } from "./vm/virtual-machine.js";
export { RUN_STRATEGIES, type RunStrategy, type VirtualMachineSpec } from "./vm/vm-spec.js";
export {
  type InstancetypeStatusRef,
  PRINTABLE_STATUSES,
  type PrintableStatus,
  type VirtualMachineStatus,
  VM_CONDITION_TYPES,
} from "./vm/vm-status.js";
export {
  type AddVolumeOptions,
  AddVolumeOptionsSchema,
  addVolumeOptionsValidator,
  type HotplugVolumeSource,
  hotplugSourceName,
  type RemoveVolumeOptions,
  RemoveVolumeOptionsSchema,
  removeVolumeOptionsValidator,
  type VirtualMachineVolumeRequest,
} from "./vm/volume-requests.js";
export {
  accessCredentialVolumeName,
  type CloudInitKeyPropagation,
  propagatedKeySecrets,
} from "./vmi/access-credential-volumes.js";
export { CLAIM_VOLUMES_DIR, type ClaimVolume, claimVolumesOf } from "./vmi/claim-volumes.js";
export {
  CLOUD_INIT_SECRET_REFERENCES,
  type CloudInitSecretReference,
  cloudInitSecretVolumeName,
} from "./vmi/cloud-init-secret-volumes.js";
export { ANNOTATIONS, FINALIZERS, LABELS, VMI_CONDITION_TYPES, VMI_READY_REASONS } from "./vmi/constants.js";
export type { Disk } from "./vmi/disks.js";
export { guestHostname } from "./vmi/guest-hostname.js";
export { isHotpluggableVolume } from "./vmi/hotplug-volumes.js";
export type { Interface } from "./vmi/interfaces.js";
export {
  LAUNCHER_NETWORK,
  launcherJoinsPodNetwork,
  launcherServedInterface,
} from "./vmi/launcher-network.js";
export {
  LAUNCHER_PULL_SECRETS,
  pullSecretVolumeName,
  vmiPullSecretNames,
} from "./vmi/launcher-pull-secrets.js";
export type { Network } from "./vmi/networks.js";
export type { Probe } from "./vmi/probe.js";
export { type VirtualMachineInstance, VirtualMachineInstanceKind } from "./vmi/virtual-machine-instance.js";
export { VMI_ID_LABEL, vmiIdOf } from "./vmi/vmi-id-label.js";
export {
  EVICTION_STRATEGIES,
  type VirtualMachineInstanceSpec,
  type VirtualMachineInstanceTemplateSpec,
} from "./vmi/vmi-spec.js";
export {
  type VirtualMachineInstancePhase,
  type VirtualMachineInstanceStatus,
  VMI_PHASES,
} from "./vmi/vmi-status.js";
export type { Volume } from "./vmi/volumes.js";
