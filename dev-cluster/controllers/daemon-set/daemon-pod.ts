import { type Frozen, mutableCopy } from "../../../runtime/index.js";
import type { DaemonSet, Pod, PodTemplate } from "../kinds.js";
import { nodeNameField } from "../scheduling/node-affinity.js";
import type { Toleration } from "../scheduling/taints.js";

/** The label that says which template revision a DaemonSet pod runs. */
export const controllerRevisionHashLabel = "controller-revision-hash";

type PodSpec = NonNullable<Pod["spec"]>;

/**
 * What every DaemonSet pod tolerates (AddOrUpdateDaemonPodTolerations): node problems must not
 * evict or keep out a daemon, which is often what fixes them.
 */
export function daemonTolerations(hostNetwork: boolean): Toleration[] {
  const noExecute = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];
  const noSchedule = [
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/unschedulable",
    ...(hostNetwork ? ["node.kubernetes.io/network-unavailable"] : []),
  ];
  return [
    ...noExecute.map((key): Toleration => ({ key, operator: "Exists", effect: "NoExecute" })),
    ...noSchedule.map((key): Toleration => ({ key, operator: "Exists", effect: "NoSchedule" })),
  ];
}

/** The template's tolerations plus the daemon ones it does not already have. */
export function withDaemonTolerations(spec: Frozen<PodSpec> | undefined): Toleration[] {
  const own = (spec?.tolerations ?? []).map((toleration) => ({ ...toleration }));
  const same = (a: Toleration, b: Toleration): boolean =>
    a.key === b.key &&
    (a.operator ?? "Equal") === (b.operator ?? "Equal") &&
    a.effect === b.effect &&
    (a.value ?? "") === (b.value ?? "");
  const added = daemonTolerations(spec?.hostNetwork === true).filter(
    (toleration) => !own.some((existing) => same(existing, toleration)),
  );
  return [...own, ...added];
}

/** The DaemonSet's pod template as its pods get it: the revision label and the daemon tolerations. */
export function daemonPodTemplate(daemonSet: Frozen<DaemonSet>, hash: string): PodTemplate {
  const template = mutableCopy<PodTemplate>(daemonSet.spec?.template ?? {});
  template.metadata ??= {};
  template.metadata.labels = { ...(template.metadata.labels ?? {}), [controllerRevisionHashLabel]: hash };
  template.spec = {
    containers: [],
    ...(template.spec ?? {}),
    tolerations: withDaemonTolerations(template.spec),
  };
  return template;
}

/**
 * Pins a pod spec to one node the way kube ≥ 1.12 does (ReplaceDaemonSetPodNodeNameNodeAffinity):
 * the required node affinity becomes the single term `metadata.name In [node]`, and the default
 * scheduler does the binding (so resources, ports and preemption are honoured).
 */
export function pinnedToNode(spec: PodSpec, nodeName: string): PodSpec {
  const affinity = spec.affinity ?? {};
  const nodeAffinity = affinity.nodeAffinity ?? {};
  return {
    ...spec,
    affinity: {
      ...affinity,
      nodeAffinity: {
        ...nodeAffinity,
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: nodeNameField, operator: "In", values: [nodeName] }] }],
        },
      },
    },
  };
}

/**
 * The node a DaemonSet pod is for: where it is bound, or, before the scheduler bound it, the
 * node its affinity pins it to (GetTargetNodeName).
 */
export function targetNodeOf(pod: Frozen<Pod>): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const field of term.matchFields ?? []) {
      if (field.key === nodeNameField && field.operator === "In" && field.values?.length === 1)
        return field.values[0];
    }
  }
  return undefined;
}
