/**
 * The common set as the objects virt-operator applies: VirtualMachineClusterInstancetypes and
 * VirtualMachineClusterPreferences labelled as KubeVirt's virt-operator labels them (the common
 * set's own labels, the common-instancetypes version, and the managed-by labels every object the
 * operator installs carries).
 */
import { INSTANCETYPE_API_VERSION } from "../../api/index.js";
import type { ManagedObject } from "../strategy/install-strategy.js";
import { managedLabels, strategyAnnotations } from "../strategy/object-metadata.js";
import type { RenderContext } from "../strategy/render-context.js";
import {
  COMMON_ANNOTATIONS,
  COMMON_INSTANCETYPES_VERSION,
  COMMON_LABELS,
  COMMON_VENDOR,
} from "./common-labels.js";
import { commonSet, requiredMemory, seriesVersion } from "./common-set.js";
import type { CommonInstancetype } from "./instancetype-series.js";
import type { CommonPreference } from "./os-preferences.js";

export const CLUSTER_INSTANCETYPE_KIND = "VirtualMachineClusterInstancetype";
export const CLUSTER_PREFERENCE_KIND = "VirtualMachineClusterPreference";

/** The installed common set: instancetypes first, then preferences, each sorted as the tables are. */
export function renderCommonInstancetypes(context: RenderContext): ManagedObject[] {
  const set = commonSet();
  return [
    ...set.instancetypes.map((instancetype) => renderInstancetype(context, instancetype)),
    ...set.preferences.map((preference) => renderPreference(context, preference)),
  ];
}

function commonLabels(context: RenderContext): Record<string, string> {
  return {
    [COMMON_LABELS.vendor]: COMMON_VENDOR,
    [COMMON_LABELS.commonVersion]: COMMON_INSTANCETYPES_VERSION,
    ...managedLabels(context),
  };
}

function renderInstancetype(context: RenderContext, instancetype: CommonInstancetype): ManagedObject {
  const { series, spec } = instancetype;
  const extraLabels = Object.fromEntries(
    Object.entries(series.extraLabels ?? {}).map(([key, value]) => [
      COMMON_LABELS[key as keyof typeof COMMON_LABELS],
      value,
    ]),
  );
  return {
    apiVersion: INSTANCETYPE_API_VERSION,
    kind: CLUSTER_INSTANCETYPE_KIND,
    metadata: {
      name: instancetype.name,
      labels: {
        [COMMON_LABELS.class]: series.classLabel,
        [COMMON_LABELS.version]: seriesVersion(series),
        [COMMON_LABELS.cpu]: String(spec.cpu.guest),
        [COMMON_LABELS.memory]: String(spec.memory.guest),
        [COMMON_LABELS.size]: instancetype.size,
        [COMMON_LABELS.iconPf]: series.iconPf,
        ...(spec.memory.hugepages?.pageSize
          ? { [COMMON_LABELS.hugepages]: spec.memory.hugepages.pageSize }
          : {}),
        ...extraLabels,
        ...commonLabels(context),
      },
      annotations: {
        [COMMON_ANNOTATIONS.displayName]: series.displayName,
        [COMMON_ANNOTATIONS.description]: series.description,
        ...strategyAnnotations(context),
      },
    },
    spec,
  };
}

function renderPreference(context: RenderContext, preference: CommonPreference): ManagedObject {
  const { spec } = preference;
  const cpu = spec.requirements?.cpu?.guest;
  const memory = requiredMemory(spec);
  const architecture = spec.preferredArchitecture;
  return {
    apiVersion: INSTANCETYPE_API_VERSION,
    kind: CLUSTER_PREFERENCE_KIND,
    metadata: {
      name: preference.name,
      labels: {
        [COMMON_LABELS.osType]: preference.osType,
        ...(cpu === undefined ? {} : { [COMMON_LABELS.requiredCpu]: String(cpu) }),
        ...(memory === undefined ? {} : { [COMMON_LABELS.requiredMemory]: memory }),
        ...(architecture === undefined
          ? {}
          : {
              [COMMON_LABELS.arch]: architecture,
              [COMMON_LABELS.preferredArchitecture]: architecture,
              [COMMON_LABELS.requiredArchitecture]: spec.requirements?.architecture ?? architecture,
            }),
        ...commonLabels(context),
      },
      annotations: {
        [COMMON_ANNOTATIONS.preferenceDisplayName]: preference.displayName,
        [COMMON_ANNOTATIONS.providerDisplayName]: "KubeVirt",
        [COMMON_ANNOTATIONS.iconClass]: preference.icon,
        [COMMON_ANNOTATIONS.tags]: ["hidden", "kubevirt", ...preference.tags].join(","),
        ...strategyAnnotations(context),
      },
    },
    spec,
  };
}
