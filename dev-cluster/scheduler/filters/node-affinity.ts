import { type Frozen, nodeSelectorRequirementMatches } from "../../../runtime/index.js";
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from "../kinds.js";
import type { NodeInfo } from "../node-info.js";
import { type Filter, unresolvable } from "./filter.js";

export const REASON_AFFINITY_MISMATCH = "node(s) didn't match Pod's node affinity/selector";
export const REASON_AFFINITY_CONFLICT = "pod affinity terms conflict";

/** The pod's hard placement rules: spec.nodeSelector and required node affinity. */
export interface RequiredNodeAffinity {
  readonly nodeSelector: Readonly<Record<string, string>>;
  /** Undefined when the pod has no required node affinity (every node matches). */
  readonly terms: readonly Frozen<NodeSelectorTerm>[] | undefined;
}

export function requiredNodeAffinity(pod: Frozen<Pod>): RequiredNodeAffinity {
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return { nodeSelector: pod.spec?.nodeSelector ?? {}, terms: required?.nodeSelectorTerms };
}

/**
 * NodeAffinity's PreFilter: when every term pins `metadata.name` with In (DaemonSet pods do),
 * only those nodes are candidates. Undefined means every node is a candidate.
 */
export function candidateNodeNames(affinity: RequiredNodeAffinity): Set<string> | undefined {
  if (!affinity.terms) return undefined;
  const names = new Set<string>();
  for (const term of affinity.terms) {
    let termNames: Set<string> | undefined;
    for (const field of term.matchFields ?? []) {
      if (field.key !== "metadata.name" || field.operator !== "In") continue;
      const values = new Set(field.values ?? []);
      termNames = termNames ? new Set([...termNames].filter((name) => values.has(name))) : values;
    }
    // A term without a name pin lets any node through: the terms are ORed.
    if (!termNames) return undefined;
    for (const name of termNames) names.add(name);
  }
  return names;
}

function fieldRequirementMatches(requirement: Frozen<NodeSelectorRequirement>, nodeName: string): boolean {
  if (requirement.key !== "metadata.name") return false;
  const listed = (requirement.values ?? []).includes(nodeName);
  if (requirement.operator === "In") return listed;
  if (requirement.operator === "NotIn") return !listed;
  return false;
}

/** A term ANDs its requirements; a term with none matches no node. */
function termMatches(term: Frozen<NodeSelectorTerm>, node: NodeInfo): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  return (
    expressions.every((requirement) => nodeSelectorRequirementMatches(requirement, node.labels)) &&
    fields.every((requirement) => fieldRequirementMatches(requirement, node.name))
  );
}

export function matchesRequiredAffinity(affinity: RequiredNodeAffinity, node: NodeInfo): boolean {
  for (const [key, value] of Object.entries(affinity.nodeSelector)) {
    if (node.labels[key] !== value) return false;
  }
  return affinity.terms === undefined || affinity.terms.some((term) => termMatches(term, node));
}

/** NodeAffinity's Filter: nodeSelector and required node affinity, with one reason for both. */
export const nodeAffinity: Filter = (pod, node) =>
  matchesRequiredAffinity(pod.affinity, node) ? undefined : unresolvable(REASON_AFFINITY_MISMATCH);
