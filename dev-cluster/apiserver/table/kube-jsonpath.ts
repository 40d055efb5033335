import { JSONPath } from "jsonpath-plus";
import type { JsonValue } from "../json.js";

/**
 * Evaluates a kube-style JSONPath (client-go util/jsonpath, as in printer columns:
 * `.status.conditions[?(@.type=="Ready")].status`, optionally wrapped in `{}`) with
 * jsonpath-plus. Returns the matches in document order; a path that does not parse matches
 * nothing, as missing keys are allowed.
 */
export function kubeJsonPathResults(template: string, object: JsonValue): JsonValue[] {
  const path = toJsonPathPlus(template);
  if (path === undefined) return [];
  try {
    const found: unknown = JSONPath({ path, json: object, wrap: true, eval: "safe" });
    return Array.isArray(found) ? (found as JsonValue[]) : [];
  } catch {
    return [];
  }
}

/** `.a.b[0]` → `$.a.b[0]`; `[-1]` (last item in client-go) → the slice `[-1:]`. */
export function toJsonPathPlus(template: string): string | undefined {
  let path = template.trim();
  if (path.startsWith("{") && path.endsWith("}")) path = path.slice(1, -1).trim();
  if (path === "" || path === ".") return "$";
  if (path.startsWith(".") || path.startsWith("[")) path = `$${path}`;
  else if (!path.startsWith("$")) return undefined;
  return path.replace(/\[\s*-(\d+)\s*\]/g, (_match, digits: string) => {
    const from = -Number(digits);
    return from === -1 ? "[-1:]" : `[${from}:${from + 1}]`;
  });
}
