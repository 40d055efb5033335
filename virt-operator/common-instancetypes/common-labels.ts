/**
 * The labels and annotations KubeVirt's common-instancetypes put on what they ship
 * (kubevirt/common-instancetypes `docs/labels.md`), and the release our set follows. Users select
 * by them (`kubectl get vmcf -l instancetype.kubevirt.io/cpu=4`), so the names are KubeVirt's.
 */

/** The common-instancetypes release whose sizes and preferences the operator installs. */
export const COMMON_INSTANCETYPES_VERSION = "v1.7.0";

const PREFIX = "instancetype.kubevirt.io";

export const COMMON_LABELS = {
  /** Who ships the object: `kubevirt.io` for the common set. */
  vendor: `${PREFIX}/vendor`,
  /** The common-instancetypes release (virt-operator adds it, as KubeVirt's does). */
  commonVersion: `${PREFIX}/common-instancetypes-version`,
  /** Instancetypes: the series' class, e.g. `general.purpose`. */
  class: `${PREFIX}/class`,
  /** Instancetypes: the series' version, `1` for u1. */
  version: `${PREFIX}/version`,
  cpu: `${PREFIX}/cpu`,
  memory: `${PREFIX}/memory`,
  size: `${PREFIX}/size`,
  hugepages: `${PREFIX}/hugepages`,
  dedicatedCPUPlacement: `${PREFIX}/dedicatedCPUPlacement`,
  isolateEmulatorThread: `${PREFIX}/isolateEmulatorThread`,
  numa: `${PREFIX}/numa`,
  iconPf: `${PREFIX}/icon-pf`,
  /** Preferences: `linux`, `windows` or `legacy`. */
  osType: `${PREFIX}/os-type`,
  requiredCpu: `${PREFIX}/required-cpu`,
  requiredMemory: `${PREFIX}/required-memory`,
  arch: `${PREFIX}/arch`,
  preferredArchitecture: `${PREFIX}/preferred-architecture`,
  requiredArchitecture: `${PREFIX}/required-architecture`,
} as const;

export const COMMON_VENDOR = "kubevirt.io";

export const COMMON_ANNOTATIONS = {
  displayName: `${PREFIX}/displayName`,
  description: `${PREFIX}/description`,
  /** Preferences carry OpenShift's template annotations, as the common set's do. */
  preferenceDisplayName: "openshift.io/display-name",
  providerDisplayName: "openshift.io/provider-display-name",
  iconClass: "iconClass",
  tags: "tags",
} as const;
