import {
  type Frozen,
  isEmptySelector,
  type LabelSelector,
  labelsMatch,
  TerminalError,
  type WireLabelSelector,
} from "../../../runtime/index.js";

const operators = new Set(["In", "NotIn", "Exists", "DoesNotExist"]);

/**
 * The runtime's selector from an object's one. An operator kube does not know is a spec nothing
 * can act on: a TerminalError (validation should have refused it).
 */
export function labelSelectorOf(selector: Frozen<WireLabelSelector> | undefined): LabelSelector {
  const result: LabelSelector = {};
  if (selector?.matchLabels) result.matchLabels = { ...selector.matchLabels };
  if (selector?.matchExpressions) {
    result.matchExpressions = selector.matchExpressions.map((requirement) => {
      if (!operators.has(requirement.operator))
        throw new TerminalError(
          "InvalidSelector",
          `label selector operator "${requirement.operator}" is not one of In, NotIn, Exists, DoesNotExist`,
        );
      return {
        key: requirement.key,
        operator: requirement.operator as "In" | "NotIn" | "Exists" | "DoesNotExist",
        ...(requirement.values ? { values: [...requirement.values] } : {}),
      };
    });
  }
  return result;
}

/** Whether a workload's selector selects `object` (an empty or invalid selector selects nothing). */
export function selects(
  selector: Frozen<WireLabelSelector> | undefined,
  object: { readonly metadata?: { readonly labels?: Readonly<Record<string, string>> } },
): boolean {
  try {
    const parsed = labelSelectorOf(selector);
    return !isEmptySelector(parsed) && labelsMatch(parsed, object.metadata?.labels);
  } catch {
    return false;
  }
}
