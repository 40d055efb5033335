import { byKubeVirtAge } from "../../api/index.js";
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
 * (`byKubeVirtAge`, the order the components use). Preferring the finalizer keeps the choice
 * stable when two CRs share a creation second and the cache saw the later name first. Unlike the
 * components' `activeKubeVirt`, a CR being deleted stays elected: it configures nothing, but the
 * operator still has to uninstall what it installed from it (KubeVirt's operator, too, acts on a
 * CR until its phase is Deleted). Pure: recomputed from the cache on every reconcile.
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
  return held !== 0 ? held : byKubeVirtAge(left, right);
}

export function holdsFinalizer(kubevirt: Frozen<KubeVirt>): boolean {
  return kubevirt.metadata?.finalizers?.includes(OPERATOR_FINALIZER) ?? false;
}
