import { type Frozen, jsonEqual } from "../../../runtime/index.js";
import type { EndpointSlice, Service } from "../kinds.js";
import { type DesiredSlice, groupKeyOf, type SliceContent, sliceLabels } from "./endpoint-slices.js";

/** What one reconcile writes: slices to create, stored ones to rewrite, and surplus ones to delete. */
export interface SlicePlan {
  create: SliceContent[];
  update: { slice: Frozen<EndpointSlice>; content: SliceContent }[];
  remove: Frozen<EndpointSlice>[];
}

/** Matches wanted slices to stored ones of the same group, in name order. */
export function planSlices(
  service: Frozen<Service>,
  wanted: DesiredSlice[],
  existing: readonly Frozen<EndpointSlice>[],
): SlicePlan {
  const labels = sliceLabels(service);
  const stored = new Map<string, Frozen<EndpointSlice>[]>();
  for (const slice of [...existing].sort((a, b) =>
    (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""),
  )) {
    const key = groupKeyOf(slice);
    stored.set(key, [...(stored.get(key) ?? []), slice]);
  }
  const plan: SlicePlan = { create: [], update: [], remove: [] };
  for (const { group, content } of wanted) {
    const slot = stored.get(group)?.shift();
    if (!slot) plan.create.push(content);
    else if (
      !jsonEqual(slot.endpoints, content.endpoints) ||
      !jsonEqual(slot.ports ?? [], content.ports) ||
      !jsonEqual(slot.metadata?.labels ?? {}, labels)
    )
      plan.update.push({ slice: slot, content });
  }
  for (const leftover of stored.values()) plan.remove.push(...leftover);
  return plan;
}
