import { type Frozen, objectKey } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { OPERATOR_FINALIZER } from "../strategy/install-strategy.js";

/** Which KubeVirt CR the operator acts on, and why each other one is refused. */
export interface Election {
  active: Frozen<KubeVirt> | undefined;
  refused: Map<string, Refusal>;
}

export interface Refusal {
  reason: string;
  message: string;
}

export const MULTIPLE_KUBEVIRTS = "MultipleKubeVirtsExist";
export const OUTSIDE_NAMESPACE = "KubeVirtOutsideOperatorNamespace";

/**
 * One KubeVirt per cluster is installed: among the CRs in the operator's namespace, the one that
 * already holds the operator's finalizer (it was installed from), else the oldest
 * (creationTimestamp, then name). Preferring the finalizer keeps the choice stable when two CRs
 * share a creation second and the cache saw the later name first. Pure: recomputed from the
 * cache on every reconcile.
 */
export function electActiveKubeVirt(kubevirts: readonly Frozen<KubeVirt>[], namespace: string): Election {
  const candidates = kubevirts
    .filter((kubevirt) => kubevirt.metadata?.namespace === namespace)
    .sort(byPrecedence);
  const active = candidates[0];
  const refused = new Map<string, Refusal>();
  for (const kubevirt of kubevirts) {
    if (kubevirt === active) continue;
    refused.set(objectKey(kubevirt), refusalOf(kubevirt, active, namespace));
  }
  return { active, refused };
}

function refusalOf(
  kubevirt: Frozen<KubeVirt>,
  active: Frozen<KubeVirt> | undefined,
  namespace: string,
): Refusal {
  if (kubevirt.metadata?.namespace !== namespace) {
    return {
      reason: OUTSIDE_NAMESPACE,
      message: `virt-operator installs only from a KubeVirt in namespace ${namespace}: this one is ignored`,
    };
  }
  return {
    reason: MULTIPLE_KUBEVIRTS,
    message:
      `KubeVirt ${active ? objectKey(active) : "(none)"} is already active and only one KubeVirt is installed ` +
      "per cluster: nothing is installed for this one, and deleting it removes nothing",
  };
}

function byPrecedence(left: Frozen<KubeVirt>, right: Frozen<KubeVirt>): number {
  const held = Number(holdsFinalizer(right)) - Number(holdsFinalizer(left));
  if (held !== 0) return held;
  const created = creationMs(left) - creationMs(right);
  if (created !== 0) return created;
  const leftName = left.metadata?.name ?? "";
  const rightName = right.metadata?.name ?? "";
  return leftName < rightName ? -1 : leftName > rightName ? 1 : 0;
}

export function holdsFinalizer(kubevirt: Frozen<KubeVirt>): boolean {
  return kubevirt.metadata?.finalizers?.includes(OPERATOR_FINALIZER) ?? false;
}

function creationMs(kubevirt: Frozen<KubeVirt>): number {
  const parsed = Date.parse(kubevirt.metadata?.creationTimestamp ?? "");
  // Not yet stamped (never from a real server): last.
  return Number.isNaN(parsed) ? Number.MAX_SAFE_INTEGER : parsed;
}
