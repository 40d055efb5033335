import { labelValueErrors, qualifiedNameErrors } from "./label-syntax.js";

/** The operators of a label requirement (k8s.io/apimachinery/pkg/selection). */
export type LabelOperator =
  | "In"
  | "NotIn"
  | "Exists"
  | "DoesNotExist"
  | "Equals"
  | "NotEquals"
  | "GreaterThan"
  | "LessThan";

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/** Thrown for an invalid requirement; the API server turns it into a 400 naming the whole selector. */
export class LabelSelectorError extends Error {
  readonly reason = "InvalidSelector";
  constructor(message: string) {
    super(message);
    this.name = "LabelSelectorError";
  }
}

const INTEGER = /^[+-]?[0-9]+$/;

/** Builds a requirement after the checks of upstream NewRequirement. */
export function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const keyErrors = qualifiedNameErrors(key);
  if (keyErrors.length > 0)
    throw new LabelSelectorError(`key: Invalid value: ${JSON.stringify(key)}: ${keyErrors.join("; ")}`);
  checkValueCount(operator, values);
  values.forEach((value, index) => {
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) {
      throw new LabelSelectorError(
        `values[${index}][${key}]: Invalid value: ${JSON.stringify(value)}: ${valueErrors.join("; ")}`,
      );
    }
  });
  return { key, operator, values: [...new Set(values)].sort() };
}

function checkValueCount(operator: LabelOperator, values: string[]): void {
  switch (operator) {
    case "In":
    case "NotIn":
      if (values.length === 0)
        throw new LabelSelectorError(
          "values: Invalid value: for 'in', 'notin' operators, values set can't be empty",
        );
      return;
    case "Equals":
    case "NotEquals":
      if (values.length !== 1)
        throw new LabelSelectorError(
          "values: Invalid value: exact-match compatibility requires one single value",
        );
      return;
    case "Exists":
    case "DoesNotExist":
      if (values.length !== 0)
        throw new LabelSelectorError(
          "values: Invalid value: values set must be empty for exists and does not exist",
        );
      return;
    case "GreaterThan":
    case "LessThan":
      if (values.length !== 1)
        throw new LabelSelectorError(
          "values: Invalid value: for 'Gt', 'Lt' operators, exactly one value is required",
        );
      if (!INTEGER.test(values[0] ?? ""))
        throw new LabelSelectorError(
          "values[0]: Invalid value: for 'Gt', 'Lt' operators, the value must be an integer",
        );
      return;
  }
}

/** Whether a set of labels satisfies one requirement; a missing label set has no labels. */
export function requirementMatches(
  requirement: LabelRequirement,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const present = labels !== undefined && Object.hasOwn(labels, requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case "In":
    case "Equals":
      return value !== undefined && requirement.values.includes(value);
    case "NotIn":
    case "NotEquals":
      return value === undefined || !requirement.values.includes(value);
    case "Exists":
      return present;
    case "DoesNotExist":
      return !present;
    case "GreaterThan":
    case "LessThan":
      return compareIntegers(value, requirement.values[0], requirement.operator);
  }
}

/** Gt/Lt compare labels as 64-bit integers; a label that is not one never matches. */
function compareIntegers(
  label: string | undefined,
  bound: string | undefined,
  operator: "GreaterThan" | "LessThan",
): boolean {
  if (label === undefined || bound === undefined || !INTEGER.test(label) || !INTEGER.test(bound))
    return false;
  const labelValue = BigInt(label);
  const boundValue = BigInt(bound);
  return operator === "GreaterThan" ? labelValue > boundValue : labelValue < boundValue;
}
