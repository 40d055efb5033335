import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";
import { ownValue, setOwnValue } from "./own-property.js";
import {
  classifyPatchKey,
  type PatchKey,
  patchDirectiveOf,
  patchError,
  RETAIN_KEYS_DIRECTIVE,
} from "./strategic-merge-directives.js";
import {
  identityOf,
  type MergingList,
  mergeList,
  orderMerged,
  validateElementOrder,
  withoutValues,
} from "./strategic-merge-list.js";

/**
 * Applies a Kubernetes strategic merge patch (the `application/strategic-merge-patch+json` body
 * of kubectl apply/edit/patch) to a copy of `original`. Maps merge recursively and `null`
 * deletes; lists merge by key (`map`), merge as a union (`set`) or are replaced (`atomic`)
 * according to `semantics`. Supports `$patch` (replace/merge/delete), `$retainKeys`,
 * `$setElementOrder/<field>` and `$deleteFromPrimitiveList/<field>`; directives never reach the
 * result. A malformed patch is an ApiError 400.
 */
export function applyStrategicMergePatch(
  original: JsonObject,
  patch: JsonObject,
  semantics: FieldSemanticsLookup,
): JsonObject {
  if (!isJsonObject(patch)) throw patchError([], "the patch must be a JSON object");
  return mergeMap(cloneJson(original), patch, [], semantics) ?? {};
}

/**
 * Merges `patch` into `original`, which the caller owns and which is changed in place. Returns
 * undefined when the patch deletes the map. With no original the patch is merged into nothing,
 * which is how new values from the patch lose their directives and nulls.
 */
function mergeMap(
  original: JsonObject | undefined,
  patch: JsonObject,
  path: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonObject | undefined {
  const directive = patchDirectiveOf(patch, path);
  if (directive === "delete") return undefined;
  const target: JsonObject = directive === "replace" || original === undefined ? {} : original;
  const keys = Object.keys(patch).map((key) => ({ key, meaning: classifyPatchKey(key, path) }));
  applyRetainKeys(target, patch, path);

  const ordered = new Set<string>();
  for (const { key, meaning } of keys) {
    if (meaning.kind !== "setElementOrder") continue;
    if (
      applyElementOrder(
        target,
        meaning.field,
        patch[key] ?? null,
        ownValue(patch, meaning.field),
        path,
        semantics,
      )
    ) {
      ordered.add(meaning.field);
    }
  }
  for (const { key, meaning } of keys) {
    if (meaning.kind === "field" && !ordered.has(meaning.field)) {
      mergeField(target, meaning.field, patch[key] ?? null, [...path, meaning.field], semantics);
    }
  }
  for (const { key, meaning } of keys) {
    if (meaning.kind === "deleteFromPrimitiveList") deleteFromList(target, meaning, patch[key] ?? null, path);
  }
  return target;
}

function mergeField(
  target: JsonObject,
  field: string,
  patchValue: JsonValue,
  fieldPath: readonly string[],
  semantics: FieldSemanticsLookup,
): void {
  const merged =
    patchValue === null ? undefined : mergeValue(ownValue(target, field), patchValue, fieldPath, semantics);
  if (merged === undefined) delete target[field];
  else setOwnValue(target, field, merged);
}

function mergeValue(
  current: JsonValue | undefined,
  patchValue: JsonValue,
  path: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonValue | undefined {
  const fieldSemantics = semantics(path);
  if (isJsonObject(patchValue)) {
    const mergeable = isJsonObject(current) && fieldSemantics?.map !== "atomic";
    return mergeMap(mergeable ? current : undefined, patchValue, path, semantics);
  }
  if (Array.isArray(patchValue)) {
    const list = mergingListOf(fieldSemantics);
    if (list === undefined) return cleanAtomicList(patchValue, path, semantics);
    const base = Array.isArray(current) ? current : [];
    return mergeList(base, patchValue, list, path, (item, patchItem) =>
      mergeMap(item, patchItem, path, semantics),
    );
  }
  return patchValue;
}

function mergingListOf(fieldSemantics: FieldSemantics | undefined): MergingList | undefined {
  const list = fieldSemantics?.list;
  return list === undefined || list.type === "atomic" ? undefined : list;
}

/** An atomic list replaces the live one; its items still must not carry directives or nulls. */
function cleanAtomicList(
  items: readonly JsonValue[],
  path: readonly string[],
  semantics: FieldSemanticsLookup,
): JsonValue[] {
  const cleaned: JsonValue[] = [];
  for (const item of items) {
    if (isJsonObject(item)) {
      const value = mergeMap(undefined, item, path, semantics);
      if (value !== undefined) cleaned.push(value);
    } else if (Array.isArray(item)) {
      cleaned.push(cleanAtomicList(item, path, semantics));
    } else {
      cleaned.push(item);
    }
  }
  return cleaned;
}

/**
 * `$retainKeys`: every field of the live map not listed is cleared (union types such as a
 * volume's source), and the patch may only set listed fields.
 */
function applyRetainKeys(target: JsonObject, patch: JsonObject, path: readonly string[]): void {
  const retain = ownValue(patch, RETAIN_KEYS_DIRECTIVE);
  if (retain === undefined) return;
  if (!Array.isArray(retain) || !retain.every((key) => typeof key === "string")) {
    throw patchError(path, "$retainKeys must be a list of field names");
  }
  const kept = new Set<string>(retain as string[]);
  for (const [key, value] of Object.entries(patch)) {
    if (value !== null && !key.startsWith("$") && !kept.has(key)) {
      throw patchError(path, `field ${JSON.stringify(key)} is set by the patch but missing from $retainKeys`);
    }
  }
  for (const key of Object.keys(target)) {
    if (!kept.has(key)) delete target[key];
  }
}

/**
 * `$setElementOrder/<field>`: merges the field's patch list (if any) and puts the result in the
 * given order. Returns false when the field is not a merging list, leaving the field to the
 * ordinary merge (an atomic list already has the patch's order).
 */
function applyElementOrder(
  target: JsonObject,
  field: string,
  order: JsonValue,
  patchValue: JsonValue | undefined,
  path: readonly string[],
  semantics: FieldSemanticsLookup,
): boolean {
  const fieldPath = [...path, field];
  if (!Array.isArray(order)) throw patchError(fieldPath, `$setElementOrder/${field} must be a list`);
  const list = mergingListOf(semantics(fieldPath));
  if (list === undefined || (patchValue !== undefined && !Array.isArray(patchValue))) return false;
  validateElementOrder(patchValue ?? [], order, list, fieldPath);
  const current = ownValue(target, field);
  const live = Array.isArray(current) ? current : undefined;
  if (live === undefined && patchValue === undefined) return true;
  const merged =
    patchValue === undefined
      ? (live ?? [])
      : mergeList(live ?? [], patchValue, list, fieldPath, (item, patchItem) =>
          mergeMap(item, patchItem, fieldPath, semantics),
        );
  setOwnValue(target, field, orderMerged(merged, order, live ?? [], identityOf(list, fieldPath)));
  return true;
}

function deleteFromList(
  target: JsonObject,
  directive: Extract<PatchKey, { kind: "deleteFromPrimitiveList" }>,
  values: JsonValue,
  path: readonly string[],
): void {
  if (values === null) return;
  if (!Array.isArray(values)) {
    throw patchError(path, `$deleteFromPrimitiveList/${directive.field} must be a list`);
  }
  const current = ownValue(target, directive.field);
  if (Array.isArray(current)) setOwnValue(target, directive.field, withoutValues(current, values));
}
