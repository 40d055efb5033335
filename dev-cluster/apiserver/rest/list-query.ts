import { badRequest } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { labelsOf, meta, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ResourceType } from "../resource-type.js";
import {
  matchesFieldSelector,
  parseFieldSelector,
  validateFieldSelector,
} from "../selectors/field-selector.js";
import { parseLabelSelector } from "../selectors/label-selector.js";

/** Decides whether an object belongs in a list or watch, from its label and field selectors. */
export type ObjectFilter = (object: JsonObject) => boolean;

export function objectFilter(type: ResourceType, query: URLSearchParams): ObjectFilter {
  const labelText = query.get("labelSelector") ?? "";
  const fieldText = query.get("fieldSelector") ?? "";
  if (labelText === "" && fieldText === "") return () => true;
  const labels = parseLabelSelector(labelText);
  const fields = parseFieldSelector(fieldText);
  const sample = type.selectableFields({ metadata: {} });
  validateFieldSelector(
    fields,
    new Set(["metadata.name", "metadata.namespace", ...Object.keys(sample)]),
    type.plural,
  );
  return (object) => {
    if (!labels(labelsOf(object))) return false;
    if (fields.length === 0) return true;
    const values = {
      "metadata.name": nameOf(object),
      "metadata.namespace": namespaceOf(object),
      ...type.selectableFields(object),
    };
    return matchesFieldSelector(fields, values);
  };
}

interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString("base64url");
}

function decodeContinue(text: string): ContinueToken {
  try {
    const token = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<ContinueToken>;
    if (typeof token.rv === "number" && typeof token.start === "string")
      return { rv: token.rv, start: token.start };
  } catch (error) {
    throw badRequest("continue key is not valid: not a token this server issued", { cause: error });
  }
  throw badRequest("continue key is not valid: not a token this server issued");
}

function positionOf(object: JsonObject): string {
  return `${namespaceOf(object)}/${nameOf(object)}`;
}

/** Where a page starts (the `continue` token's position) and how long it may be (`limit`, 0 = all). */
export function pageBounds(query: URLSearchParams): { start: string | undefined; limit: number } {
  const continueText = query.get("continue");
  const start = continueText ? decodeContinue(continueText).start : undefined;
  const limitText = query.get("limit");
  const limit = limitText ? Number(limitText) : 0;
  if (!Number.isInteger(limit) || limit < 0) {
    throw badRequest(`limit must be a non-negative integer, not ${limitText}`);
  }
  return { start, limit };
}

/** The `continue` token after a page whose last object is `last`, when more objects follow. */
export function continueAfter(
  last: JsonObject | undefined,
  remaining: number,
  revision: number,
): string | undefined {
  return last && remaining > 0 ? encodeContinue({ rv: revision, start: positionOf(last) }) : undefined;
}

/**
 * One page of a sorted list: the items after the `continue` token, at most `limit` of them, and
 * the token for the next page.
 */
export function paginate(
  items: JsonObject[],
  query: URLSearchParams,
  revision: number,
): { page: JsonObject[]; continueToken?: string; remaining?: number } {
  const { start, limit } = pageBounds(query);
  const after = start === undefined ? items : items.filter((o) => positionOf(o) > start);
  if (limit === 0 || after.length <= limit) return { page: after };
  const page = after.slice(0, limit);
  const remaining = after.length - limit;
  return { page, continueToken: continueAfter(page[page.length - 1], remaining, revision), remaining };
}

/** Whether a client asked for a meta.k8s.io Table (kubectl get). */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((part) => /;\s*as=Table/.test(part) && /g=meta\.k8s\.io/.test(part));
}

export function includeObjectPolicy(query: URLSearchParams): "None" | "Metadata" | "Object" {
  const value = query.get("includeObject");
  if (value === null || value === "") return "Metadata";
  if (value === "None" || value === "Metadata" || value === "Object") return value;
  throw badRequest(`includeObject must be one of None, Metadata or Object, not ${JSON.stringify(value)}`);
}

export function resourceVersionOf(object: JsonObject): string {
  return String(meta(object).resourceVersion ?? "");
}
