import { type Static, Type } from "@sinclair/typebox";
import { StringMap } from "../schema/kube-types.js";

export const LabelSelectorRequirementSchema = Type.Object({
  key: Type.String(),
  operator: Type.String(),
  values: Type.Optional(Type.Array(Type.String(), { "x-kubernetes-list-type": "atomic" })),
});

/** metav1.LabelSelector */
export const LabelSelectorSchema = Type.Object(
  {
    matchLabels: Type.Optional(StringMap()),
    matchExpressions: Type.Optional(
      Type.Array(LabelSelectorRequirementSchema, { "x-kubernetes-list-type": "atomic" }),
    ),
  },
  { "x-kubernetes-map-type": "atomic" },
);
export type LabelSelector = Static<typeof LabelSelectorSchema>;

const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;

/** The problems of a selector's expressions (unknown operator, values where none belong); empty when valid. */
export function labelSelectorErrors(selector: LabelSelector): { index: number; message: string }[] {
  const errors: { index: number; message: string }[] = [];
  (selector.matchExpressions ?? []).forEach((requirement, index) => {
    const values = requirement.values ?? [];
    if (!OPERATORS.some((operator) => operator === requirement.operator)) {
      errors.push({ index, message: `"${requirement.operator}" is not a valid label selector operator` });
    } else if ((requirement.operator === "In" || requirement.operator === "NotIn") && values.length === 0) {
      errors.push({ index, message: "values: must be specified when `operator` is 'In' or 'NotIn'" });
    } else if (
      (requirement.operator === "Exists" || requirement.operator === "DoesNotExist") &&
      values.length > 0
    ) {
      errors.push({
        index,
        message: "values: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      });
    }
  });
  return errors;
}
