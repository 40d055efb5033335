/**
 * Selectors as the API server reads them, validated as upstream does: the string form of a
 * `labelSelector` query parameter, and a metav1.LabelSelector object as LabelSelectorAsSelector
 * converts it. Both give a LabelMatcher; malformed input throws LabelSelectorError.
 */
import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorError,
  newRequirement,
  requirementMatches,
} from "./label-requirement.js";
import { parseLabelRequirements } from "./label-selector-parser.js";

/** Decides whether an object's labels (metadata.labels, possibly absent) are selected. */
export type LabelMatcher = (labels: Readonly<Record<string, string>> | undefined) => boolean;

/** The string form (`a=b`, `a!=b`, `a in (x,y)`, `!a`, ...); an empty selector selects everything. */
export function labelMatcherFromText(text: string): LabelMatcher {
  return matcherOf(parseLabelRequirements(text));
}

/** A metav1.LabelSelector of unknown shape: `{}` selects everything, null/undefined selects nothing. */
export function labelMatcherFromObject(selector: unknown): LabelMatcher {
  if (selector === null || selector === undefined) return () => false;
  return matcherOf(requirementsOfObject(selector));
}

const EXPRESSION_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: "In",
  NotIn: "NotIn",
  Exists: "Exists",
  DoesNotExist: "DoesNotExist",
};

function requirementsOfObject(selector: unknown): LabelRequirement[] {
  if (!isRecord(selector)) throw new LabelSelectorError("a label selector must be an object");
  const { matchLabels, matchExpressions } = selector;
  const requirements: LabelRequirement[] = [];
  if (matchLabels !== undefined && matchLabels !== null) {
    if (!isRecord(matchLabels)) throw new LabelSelectorError("matchLabels must be a map of strings");
    for (const [key, value] of Object.entries(matchLabels)) {
      if (typeof value !== "string") throw new LabelSelectorError(`matchLabels[${key}] must be a string`);
      requirements.push(newRequirement(key, "Equals", [value]));
    }
  }
  if (matchExpressions !== undefined && matchExpressions !== null) {
    if (!Array.isArray(matchExpressions)) throw new LabelSelectorError("matchExpressions must be a list");
    matchExpressions.forEach((expression: unknown, index) => {
      requirements.push(requirementOfExpression(expression, index));
    });
  }
  return requirements;
}

function requirementOfExpression(expression: unknown, index: number): LabelRequirement {
  const where = `matchExpressions[${index}]`;
  if (!isRecord(expression)) throw new LabelSelectorError(`${where} must be an object`);
  const { key, operator, values } = expression;
  if (typeof key !== "string") throw new LabelSelectorError(`${where}.key must be a string`);
  const mapped =
    typeof operator === "string" && Object.hasOwn(EXPRESSION_OPERATORS, operator)
      ? EXPRESSION_OPERATORS[operator]
      : undefined;
  if (mapped === undefined) {
    throw new LabelSelectorError(
      `${where}.operator: ${JSON.stringify(operator ?? "")} is not a valid label selector operator`,
    );
  }
  const valueList = values === undefined || values === null ? [] : values;
  if (!Array.isArray(valueList) || !valueList.every((value) => typeof value === "string")) {
    throw new LabelSelectorError(`${where}.values must be a list of strings`);
  }
  return newRequirement(key, mapped, valueList as string[]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function matcherOf(requirements: readonly LabelRequirement[]): LabelMatcher {
  return (labels) => requirements.every((requirement) => requirementMatches(requirement, labels));
}
