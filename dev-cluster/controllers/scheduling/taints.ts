import type { Frozen } from "../../../runtime/index.js";
import type { Node, Pod } from "../kinds.js";

export type Taint = NonNullable<NonNullable<Node["spec"]>["taints"]>[number];
export type Toleration = NonNullable<NonNullable<Pod["spec"]>["tolerations"]>[number];

/** Whether `toleration` tolerates `taint` (v1.Toleration.ToleratesTaint). */
export function tolerates(toleration: Frozen<Toleration>, taint: Frozen<Taint>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator ?? "Equal";
  if (operator === "Exists") return true;
  // An empty key with Equal is invalid (validation rejects it); it tolerates nothing here.
  if (!toleration.key) return false;
  return operator === "Equal" && (toleration.value ?? "") === (taint.value ?? "");
}

/** The first taint with one of `effects` that no toleration tolerates. */
export function untoleratedTaint(
  taints: readonly Frozen<Taint>[],
  tolerations: readonly Frozen<Toleration>[],
  effects: readonly string[],
): Frozen<Taint> | undefined {
  return taints.find(
    (taint) =>
      effects.includes(taint.effect) && !tolerations.some((toleration) => tolerates(toleration, taint)),
  );
}
