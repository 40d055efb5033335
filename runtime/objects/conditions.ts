import { wireTimeMillis } from "../clock/wire-time.js";

/**
 * Status conditions, the one way every controller here writes them (as apimachinery's
 * meta.SetStatusCondition does): a condition is updated where it stands in the list, a new one is
 * appended, and lastTransitionTime moves only when the status changes. A condition that says the
 * same thing again leaves the list equal, so the status write it would cause is skipped.
 *
 * Times carry milliseconds (RFC 3339 allows them and every client parses them): a VM that starts
 * in under a second must show it in its conditions, where metav1.Time's whole seconds would not.
 *
 * The shape is the one all kinds share (metav1.Condition and KubeVirt's per-kind conditions); the
 * runtime knows no kind, so it declares the shape itself.
 */
export type ConditionStatus = "True" | "False" | "Unknown";

export interface StatusCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
}

/** What a controller says about one condition; the times are filled in here. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

/**
 * How lastProbeTime is kept: `null` where nothing probes (KubeVirt's VM and VMI conditions), or
 * `onChange`, moved whenever the condition says something new (KubeVirt's operator conditions).
 */
export type ProbeTime = "null" | "onChange";

interface ConditionOfType {
  readonly type: string;
}

interface ReadonlyCondition extends ConditionOfType {
  readonly status: ConditionStatus;
  readonly reason?: string | undefined;
  readonly message?: string | undefined;
  readonly lastProbeTime?: string | null | undefined;
  readonly lastTransitionTime?: string | null | undefined;
}

type Conditions = readonly ReadonlyCondition[] | undefined;

export function findCondition<C extends ConditionOfType>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((condition) => condition.type === type);
}

/** Whether the condition of `type` has `status` (and `reason`, when one is asked for). */
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
 * The condition `update` makes of `existing`. An empty reason or message is left out, as
 * KubeVirt's `omitempty` leaves it out of the JSON.
 */
export function nextCondition(
  existing: ReadonlyCondition | undefined,
  update: ConditionUpdate,
  nowMs: number,
  probeTime: ProbeTime = "null",
): StatusCondition {
  const now = wireTimeMillis(nowMs);
  const sameStatus = existing?.status === update.status;
  const unchanged =
    sameStatus &&
    (existing.reason ?? "") === (update.reason ?? "") &&
    (existing.message ?? "") === (update.message ?? "");
  return {
    type: update.type,
    status: update.status,
    ...(update.reason ? { reason: update.reason } : {}),
    ...(update.message ? { message: update.message } : {}),
    lastProbeTime: probeTime === "null" ? null : unchanged ? (existing.lastProbeTime ?? now) : now,
    lastTransitionTime: sameStatus ? (existing.lastTransitionTime ?? now) : now,
  };
}

/** The conditions with `update` applied in place (appended when new); the others copied. */
export function setCondition(
  conditions: Conditions,
  update: ConditionUpdate,
  nowMs: number,
  probeTime: ProbeTime = "null",
): StatusCondition[] {
  return putCondition(
    conditions,
    nextCondition(findCondition(conditions, update.type), update, nowMs, probeTime),
  );
}

/**
 * Exactly the conditions `updates` say, in their order: any other condition is dropped. Times are
 * carried over from `previous` as `setCondition` would.
 */
export function setConditions(
  previous: Conditions,
  updates: readonly ConditionUpdate[],
  nowMs: number,
  probeTime: ProbeTime = "null",
): StatusCondition[] {
  return updates.map((update) =>
    nextCondition(findCondition(previous, update.type), update, nowMs, probeTime),
  );
}

/** The conditions with `condition` put in place of the one of its type, its times kept as given. */
export function putCondition(conditions: Conditions, condition: StatusCondition): StatusCondition[] {
  const list = copyOf(conditions);
  const at = list.findIndex((existing) => existing.type === condition.type);
  if (at < 0) return [...list, condition];
  list[at] = condition;
  return list;
}

/** A copy of the conditions without the one of `type` (any kind's conditions: only `type` is read). */
export function removeCondition<C extends ConditionOfType>(
  conditions: readonly C[] | undefined,
  type: string,
): C[] {
  return (conditions ?? [])
    .filter((condition) => condition.type !== type)
    .map((condition) => structuredClone(condition));
}

function copyOf(conditions: Conditions): StatusCondition[] {
  return (conditions ?? []).map((condition) => structuredClone(condition) as StatusCondition);
}
