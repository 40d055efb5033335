import { type Frozen, nodeSelectorRequirementMatches } from "../../../runtime/index.js";
import type { Node, Pod } from "../kinds.js";

type PodSpec = NonNullable<Pod["spec"]>;
type NodeSelectorTerm = NonNullable<
  NonNullable<
    NonNullable<PodSpec["affinity"]>["nodeAffinity"]
  >["requiredDuringSchedulingIgnoredDuringExecution"]
>["nodeSelectorTerms"][number];

/** The only field a node selector term may match on (`matchFields`). */
export const nodeNameField = "metadata.name";

/**
 * Whether a pod's placement constraints admit `node`: its nodeSelector, and the terms of its
 * required node affinity (any term may match; a term matches when all its requirements do).
 * Preferred affinity only ranks nodes and is the scheduler's business.
 */
export function podFitsNode(spec: Frozen<PodSpec> | undefined, node: Frozen<Node>): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [key, value] of Object.entries(spec?.nodeSelector ?? {})) {
    if (labels[key] !== value) return false;
  }
  const required = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((term) => termMatches(term, node));
}

/** An empty term matches no node (kube's NodeSelectorTerm semantics). */
export function termMatches(term: Frozen<NodeSelectorTerm>, node: Frozen<Node>): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  const nodeFields: Record<string, string> = { [nodeNameField]: node.metadata?.name ?? "" };
  return (
    expressions.every((requirement) => nodeSelectorRequirementMatches(requirement, labels)) &&
    fields.every((requirement) => nodeSelectorRequirementMatches(requirement, nodeFields))
  );
}
