import { badRequest } from "../api-error.js";
import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorError,
  newRequirement,
  requirementMatches,
} from "./label-requirement.js";
import { parseLabelRequirements } from "./label-selector-parser.js";

/** Decides whether an object's labels (metadata.labels, possibly absent) are selected. */
export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

/**
 * Parses the `labelSelector` query parameter syntax (`a=b`, `a!=b`, `a in (x,y)`, `!a`, ...).
 * An empty selector selects everything. Invalid syntax, keys or values → ApiError 400.
 */
export function parseLabelSelector(text: string): LabelMatcher {
  try {
    return matcherOf(parseLabelRequirements(text));
  } catch (error) {
    if (error instanceof LabelSelectorError) {
      throw badRequest(`unable to parse label selector ${JSON.stringify(text)}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

const EXPRESSION_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: "In",
  NotIn: "NotIn",
  Exists: "Exists",
  DoesNotExist: "DoesNotExist",
};

/**
 * Converts a metav1.LabelSelector (`matchLabels` + `matchExpressions`) as LabelSelectorAsSelector
 * does: `{}` selects everything, null/undefined selects nothing. Malformed → ApiError 400.
 */
export function labelSelectorFromObject(selector: unknown): LabelMatcher {
  if (selector === null || selector === undefined) return () => false;
  try {
    return matcherOf(requirementsOfObject(selector));
  } catch (error) {
    if (error instanceof LabelSelectorError) {
      throw badRequest(`invalid label selector ${JSON.stringify(selector)}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

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

export type { LabelOperator, LabelRequirement };
export { parseLabelRequirements };
