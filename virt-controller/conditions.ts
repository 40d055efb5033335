import type { Condition, ConditionStatus } from "../api/index.js";
import type { Frozen } from "../runtime/index.js";
import { wireTime } from "./timestamps.js";

/** What a controller says about one condition; the times are filled in by `withCondition`. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

type Conditions = readonly Frozen<Condition>[] | readonly Condition[] | undefined;

export function findCondition(conditions: Conditions, type: string): Frozen<Condition> | undefined {
  return conditions?.find((condition) => condition.type === type);
}

export function hasCondition(
  conditions: Conditions,
  type: string,
  status: ConditionStatus,
  reason?: string,
): boolean {
  const condition = findCondition(conditions, type);
  return condition?.status === status && (reason === undefined || condition.reason === reason);
}

/**
 * The conditions with `update` applied. lastTransitionTime moves only when the status changes,
 * and lastProbeTime stays null (nothing here probes): a condition that says the same thing
 * again leaves the list equal, so the status write it would cause is skipped.
 */
export function withCondition(conditions: Conditions, update: ConditionUpdate, nowMs: number): Condition[] {
  const list = (conditions ?? []).map((condition) => structuredClone(condition) as Condition);
  const existing = list.find((condition) => condition.type === update.type);
  const next: Condition = {
    type: update.type,
    status: update.status,
    lastProbeTime: null,
    lastTransitionTime:
      existing && existing.status === update.status ? (existing.lastTransitionTime ?? null) : wireTime(nowMs),
    ...(update.reason ? { reason: update.reason } : {}),
    ...(update.message ? { message: update.message } : {}),
  };
  if (!existing) return [...list, next];
  return list.map((condition) => (condition === existing ? next : condition));
}

export function withoutCondition(conditions: Conditions, type: string): Condition[] {
  return (conditions ?? [])
    .filter((condition) => condition.type !== type)
    .map((condition) => structuredClone(condition) as Condition);
}

/** The conditions with `condition` put in place of the one of its type (times kept as given). */
export function withConditionAsIs(conditions: Conditions, condition: Condition): Condition[] {
  const list = (conditions ?? []).map((existing) => structuredClone(existing) as Condition);
  const at = list.findIndex((existing) => existing.type === condition.type);
  if (at < 0) return [...list, condition];
  list[at] = condition;
  return list;
}
