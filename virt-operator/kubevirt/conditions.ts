import type { Condition, ConditionStatus } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";

/** What the reconciler says about one condition; `withConditions` fills in the times. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * The conditions with `updates` applied, in their order, replacing every other condition.
 * lastTransitionTime moves only when the status changes; lastProbeTime marks the last time
 * anything in the condition changed. A condition that says the same again keeps both times, so
 * a steady state computes an equal list and writes nothing.
 */
export function withConditions(
  previous: readonly Frozen<Condition>[] | undefined,
  updates: readonly ConditionUpdate[],
  nowMs: number,
): Condition[] {
  const now = wireTime(nowMs);
  return updates.map((update) => {
    const existing = previous?.find((condition) => condition.type === update.type);
    const unchanged =
      existing?.status === update.status &&
      existing.reason === update.reason &&
      (existing.message ?? "") === update.message;
    return {
      type: update.type,
      status: update.status,
      reason: update.reason,
      message: update.message,
      lastProbeTime: unchanged ? (existing.lastProbeTime ?? now) : now,
      lastTransitionTime: existing?.status === update.status ? (existing.lastTransitionTime ?? now) : now,
    };
  });
}

/** RFC 3339 in whole seconds (metav1.Time), e.g. `2024-05-01T10:00:00Z`. */
export function wireTime(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
