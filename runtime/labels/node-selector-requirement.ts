/**
 * core/v1 NodeSelectorRequirement (node affinity, nodeSelectorTerms): a label requirement whose
 * operators are spelled In, NotIn, Exists, DoesNotExist, Gt and Lt, matched as upstream's
 * NodeSelectorRequirementsAsSelector does. A requirement it would refuse (an unknown operator,
 * Gt/Lt without exactly one value) matches nothing.
 */
import { type LabelOperator, requirementMatches } from "./label-requirement.js";

export interface WireNodeSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

const NODE_SELECTOR_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: "In",
  NotIn: "NotIn",
  Exists: "Exists",
  DoesNotExist: "DoesNotExist",
  Gt: "GreaterThan",
  Lt: "LessThan",
};

export function nodeSelectorRequirementMatches(
  requirement: WireNodeSelectorRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const operator = Object.hasOwn(NODE_SELECTOR_OPERATORS, requirement.operator)
    ? NODE_SELECTOR_OPERATORS[requirement.operator]
    : undefined;
  if (operator === undefined) return false;
  const values = [...(requirement.values ?? [])];
  if ((operator === "GreaterThan" || operator === "LessThan") && values.length !== 1) return false;
  return requirementMatches({ key: requirement.key, operator, values }, labels);
}
