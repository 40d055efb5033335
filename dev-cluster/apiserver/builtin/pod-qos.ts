import { Quantity } from "../../../runtime/quantity/quantity.js";
import type { JsonObject } from "../json.js";
import { objectsAt, stringMapAt } from "./json-read.js";

const qosResources = ["cpu", "memory"] as const;

function addNonZero(totals: Map<string, number>, amounts: Record<string, string>): Set<string> {
  const found = new Set<string>();
  for (const resource of qosResources) {
    const text = amounts[resource];
    if (text === undefined) continue;
    const value = Quantity.tryParse(text)?.toNumber();
    if (value === undefined || !(value > 0)) continue;
    totals.set(resource, (totals.get(resource) ?? 0) + value);
    found.add(resource);
  }
  return found;
}

/** The pod's QoS class as the kubelet and `kubectl describe` see it (qos.GetPodQOS, cpu and memory only). */
export function podQosClass(spec: JsonObject): "Guaranteed" | "Burstable" | "BestEffort" {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const container of [...objectsAt(spec, "containers"), ...objectsAt(spec, "initContainers")]) {
    addNonZero(requests, stringMapAt(container, "resources", "requests"));
    const limited = addNonZero(limits, stringMapAt(container, "resources", "limits"));
    if (!qosResources.every((resource) => limited.has(resource))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed) {
    for (const [resource, value] of requests) {
      if (limits.get(resource) !== value) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}
