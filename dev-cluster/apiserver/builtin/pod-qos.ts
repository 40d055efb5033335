import type { JsonObject } from "../json.js";
import { objectsAt, stringMapAt } from "./json-read.js";

const suffixes: Readonly<Record<string, number>> = {
  "": 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** The numeric value of a resource.Quantity string (`500m`, `1Gi`, `1e3`); NaN when it is not one. */
export function quantityValue(text: string): number {
  const match = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(text.trim());
  const multiplier = match ? suffixes[match[2] ?? ""] : undefined;
  if (!match || multiplier === undefined) return Number.NaN;
  return Number(match[1]) * multiplier;
}

const qosResources = ["cpu", "memory"] as const;

function addNonZero(totals: Map<string, number>, amounts: Record<string, string>): Set<string> {
  const found = new Set<string>();
  for (const resource of qosResources) {
    const text = amounts[resource];
    if (text === undefined) continue;
    const value = quantityValue(text);
    if (!(value > 0)) continue;
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
