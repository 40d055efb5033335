import type { NodePlacement } from "./render-context.js";

/** The pod spec fields a placement sets: only those that have something to say. */
export interface PodPlacement {
  nodeSelector: Record<string, string>;
  tolerations: unknown[];
  affinity?: unknown;
}

/** Every component runs on Linux nodes only (KubeVirt selects them the same way). */
const LINUX_NODES = { "kubernetes.io/os": "linux" };
/** Lets components run on nodes reserved for cluster add-ons, as KubeVirt's do. */
const CRITICAL_ADDONS_TOLERATION = { key: "CriticalAddonsOnly", operator: "Exists" };

/**
 * Where a component's pods go: Linux nodes, plus the CR's `nodePlacement` (its node selector
 * added, its tolerations appended, its affinity instead of the component's default affinity).
 */
export function podPlacement(placement: NodePlacement, defaultAffinity?: unknown): PodPlacement {
  // Copies: the rendered objects never share structure with the CR they came from.
  const affinity = structuredClone(placement.affinity) ?? defaultAffinity;
  return {
    nodeSelector: { ...LINUX_NODES, ...placement.nodeSelector },
    tolerations: [{ ...CRITICAL_ADDONS_TOLERATION }, ...structuredClone(placement.tolerations ?? [])],
    ...(affinity !== undefined ? { affinity } : {}),
  };
}

/** Spread replicas of `component` over nodes when the scheduler can (a node failure takes one only). */
export function preferSpreadOverNodes(componentLabel: string, component: string): unknown {
  return {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 1,
          podAffinityTerm: {
            labelSelector: { matchLabels: { [componentLabel]: component } },
            topologyKey: "kubernetes.io/hostname",
          },
        },
      ],
    },
  };
}
