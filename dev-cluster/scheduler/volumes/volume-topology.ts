import { type Frozen, nodeSelectorRequirementMatches } from "../../../runtime/index.js";
import type { PersistentVolume, StorageClass } from "../kinds.js";

type Labels = Readonly<Record<string, string>>;

/**
 * CheckNodeAffinity: a volume without required node affinity is reachable from every node;
 * otherwise one of its terms must match the node's labels. A term without expressions, or one
 * that names fields (a volume's terms are matched against labels only), matches no node.
 */
export function volumeNodeAffinityMatches(volume: Frozen<PersistentVolume>, labels: Labels): boolean {
  const required = volume.spec?.nodeAffinity?.required;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((term) => {
    const expressions = term.matchExpressions ?? [];
    if (expressions.length === 0 || (term.matchFields ?? []).length > 0) return false;
    return expressions.every((requirement) => nodeSelectorRequirementMatches(requirement, labels));
  });
}

/**
 * MatchTopologySelectorTerms over a class's allowedTopologies: none means anywhere; an empty
 * term selects nothing; a term matches when every label expression's key has one of its values.
 */
export function classAllowsNode(storageClass: Frozen<StorageClass>, labels: Labels): boolean {
  const terms = storageClass.allowedTopologies ?? [];
  if (terms.length === 0) return true;
  return terms.some((term) => {
    const expressions = term.matchLabelExpressions ?? [];
    if (expressions.length === 0) return false;
    return expressions.every(({ key, values }) => {
      const value = labels[key];
      return value !== undefined && values.includes(value);
    });
  });
}
