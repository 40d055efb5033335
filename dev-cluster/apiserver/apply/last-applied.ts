import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { FieldSet } from "./field-set.js";
import { canonicalJson } from "./path-element.js";
import { compareTracked, type IgnoredFields, trackedFieldSetOf } from "./tracked-fields.js";

/**
 * kube-apiserver eases `kubectl apply --server-side` onto objects made by client-side apply:
 * for the field manager named `kubectl` only, conflicts on fields that the
 * last-applied-configuration annotation still describes correctly are forced, and the
 * annotation is kept in sync with each apply.
 */
export const KUBECTL_MANAGER = "kubectl";
export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

function lastAppliedText(object: JsonObject): string | undefined {
  const annotations = isJsonObject(object.metadata) ? object.metadata.annotations : undefined;
  const text = isJsonObject(annotations) ? annotations[LAST_APPLIED_ANNOTATION] : undefined;
  return typeof text === "string" && text !== "" ? text : undefined;
}

/**
 * The fields client-side apply may be considered to own: those of the annotation whose value the
 * live object still has. Empty when there is no usable annotation (or it is of another version).
 */
export function fieldsStillLastApplied(
  live: JsonObject,
  apiVersion: string,
  semantics: FieldSemanticsLookup,
  ignored: IgnoredFields,
): FieldSet {
  const text = lastAppliedText(live);
  if (text === undefined) return FieldSet.EMPTY;
  let lastApplied: JsonValue;
  try {
    lastApplied = JSON.parse(text) as JsonValue;
  } catch {
    return FieldSet.EMPTY;
  }
  if (!isJsonObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return FieldSet.EMPTY;
  const { changed, removed } = compareTracked(lastApplied, live, semantics, ignored);
  return trackedFieldSetOf(lastApplied, semantics, ignored).difference(changed).difference(removed);
}

/** When the object carries the annotation, rewrites it to the applied configuration (sorted keys, as Go writes it). */
export function syncLastApplied(object: JsonObject, applied: JsonObject): JsonObject {
  if (lastAppliedText(object) === undefined) return object;
  const configuration = cloneJson(applied);
  const metadata = configuration.metadata;
  if (isJsonObject(metadata) && isJsonObject(metadata.annotations)) {
    delete metadata.annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  }
  const result = cloneJson(object);
  const annotations = isJsonObject(result.metadata) ? result.metadata.annotations : undefined;
  if (isJsonObject(annotations)) annotations[LAST_APPLIED_ANNOTATION] = `${canonicalJson(configuration)}\n`;
  return result;
}
