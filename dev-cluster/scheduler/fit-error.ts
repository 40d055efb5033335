import type { FilterFailure } from "./filters/filter.js";

/** What one scheduling attempt learnt about every node (kube-scheduler's Diagnosis). */
export interface FitDiagnosis {
  readonly numAllNodes: number;
  /** Nodes the filters rejected, each with its reasons. */
  readonly failures: readonly FilterFailure[];
  /** Nodes a PreFilter ruled out before filtering (they count as unresolvable). */
  readonly absent?: { readonly count: number; readonly reason: string };
  /** A PreFilter that rejected the pod for every node. */
  readonly preFilterMessage?: string;
  /** The pod's spec.preemptionPolicy. */
  readonly preemptionPolicy?: string;
}

export const NO_NODES_AVAILABLE = "no nodes available to schedule pods";

/** `N reason` entries, sorted as strings (Go's sort.Strings), comma separated. */
function histogram(counts: ReadonlyMap<string, number>): string {
  return [...counts]
    .map(([reason, count]) => `${count} ${reason}`)
    .sort()
    .join(", ");
}

function addCount(counts: Map<string, number>, reason: string, count: number): void {
  if (count > 0) counts.set(reason, (counts.get(reason) ?? 0) + count);
}

function filterPart(diagnosis: FitDiagnosis): string {
  if (diagnosis.preFilterMessage) return ` ${diagnosis.preFilterMessage}.`;
  const counts = new Map<string, number>();
  for (const failure of diagnosis.failures) for (const reason of failure.reasons) addCount(counts, reason, 1);
  if (diagnosis.absent) addCount(counts, diagnosis.absent.reason, diagnosis.absent.count);
  return counts.size === 0 ? "" : ` ${histogram(counts)}.`;
}

/**
 * The DefaultPreemption PostFilter's part. This scheduler does not preempt; the words are those
 * kube-scheduler uses when preemption finds nothing to do: nodes short of resources have no
 * victims (true while pods carry no priorities), the others cannot be helped by evicting pods.
 */
function preemptionPart(diagnosis: FitDiagnosis): string {
  if (diagnosis.preemptionPolicy === "Never")
    return " preemption: not eligible due to preemptionPolicy=Never.";
  const total = diagnosis.numAllNodes;
  const resolvable = diagnosis.preFilterMessage
    ? 0
    : diagnosis.failures.filter((failure) => !failure.unresolvable).length;
  const counts = new Map<string, number>();
  addCount(counts, "No preemption victims found for incoming pod", resolvable);
  addCount(counts, "Preemption is not helpful for scheduling", total - resolvable);
  return ` preemption: 0/${total} nodes are available: ${histogram(counts)}.`;
}

/**
 * FitError.Error(): `0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't match Pod's
 * node affinity/selector. preemption: 0/4 nodes are available: 1 No preemption victims found for
 * incoming pod, 3 Preemption is not helpful for scheduling.`
 */
export function fitErrorMessage(diagnosis: FitDiagnosis): string {
  return `0/${diagnosis.numAllNodes} nodes are available:${filterPart(diagnosis)}${preemptionPart(diagnosis)}`;
}
