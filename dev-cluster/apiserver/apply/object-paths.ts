import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { listItemElement } from "./list-items.js";
import { type FieldPath, type PathElement, parseElement } from "./path-element.js";

/** A position inside a value: a property name or a list index. */
type Step = string | number;

/** Finds the list item `element` names, the same way field sets name items. */
function locateItem(
  list: readonly JsonValue[],
  element: PathElement,
  propertyPath: readonly string[],
  semantics: FieldSemanticsLookup,
): number | undefined {
  const parsed = parseElement(element);
  let index = -1;
  if (parsed.kind === "index") {
    index = parsed.index < list.length ? parsed.index : -1;
  } else if (parsed.kind === "value") {
    index = list.findIndex((item) => jsonEqual(item, parsed.value));
  } else if (parsed.kind === "key") {
    const declared = semantics(propertyPath)?.list;
    index = list.findIndex((item) =>
      declared?.type === "map"
        ? listItemElement(item, declared) === element
        : isJsonObject(item) &&
          Object.entries(parsed.fields).every(([name, value]) => jsonEqual(item[name], value)),
    );
  }
  return index >= 0 ? index : undefined;
}

interface Located {
  parent: JsonValue;
  step: Step;
}

/** Walks `path` down from `root`; the last step's container and position, or undefined if absent. */
function locate(root: JsonValue, path: FieldPath, semantics: FieldSemanticsLookup): Located | undefined {
  let container: JsonValue = root;
  let located: Located | undefined;
  const propertyPath: string[] = [];
  for (const element of path) {
    if (located) {
      const next = stepInto(located.parent, located.step);
      if (next === undefined) return undefined;
      container = next;
    }
    const parsed = parseElement(element);
    let step: Step | undefined;
    if (parsed.kind === "field") {
      step = isJsonObject(container) && Object.hasOwn(container, parsed.name) ? parsed.name : undefined;
      propertyPath.push(parsed.name);
    } else if (Array.isArray(container)) {
      step = locateItem(container, element, propertyPath, semantics);
    }
    if (step === undefined) return undefined;
    located = { parent: container, step };
  }
  return located;
}

function stepInto(container: JsonValue, step: Step): JsonValue | undefined {
  if (typeof step === "number") return Array.isArray(container) ? container[step] : undefined;
  return isJsonObject(container) ? container[step] : undefined;
}

/** The value at `path`, or undefined when some step does not exist. */
export function valueAtPath(
  root: JsonValue,
  path: FieldPath,
  semantics: FieldSemanticsLookup,
): JsonValue | undefined {
  if (path.length === 0) return root;
  const located = locate(root, path, semantics);
  return located ? stepInto(located.parent, located.step) : undefined;
}

/**
 * Removes the value at `path` from `root`, in place: a property is deleted, a list item spliced
 * out. Returns false when there was nothing to remove.
 */
export function removeAtPath(root: JsonObject, path: FieldPath, semantics: FieldSemanticsLookup): boolean {
  const located = locate(root, path, semantics);
  if (!located) return false;
  const { parent, step } = located;
  if (typeof step === "number" && Array.isArray(parent)) parent.splice(step, 1);
  else if (typeof step === "string" && isJsonObject(parent)) delete parent[step];
  else return false;
  return true;
}
