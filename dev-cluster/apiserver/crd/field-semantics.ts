import type { FieldSemantics, FieldSemanticsLookup } from "../resource-type.js";
import { fieldSchema, itemsOf, type SchemaNode, stringList, text } from "./schema-nodes.js";

/**
 * Merge semantics of a custom resource's fields, read from its schema: `x-kubernetes-list-type`
 * (with `x-kubernetes-list-map-keys`) for lists and `x-kubernetes-map-type` for maps and
 * structs. Paths name properties from the root; list items are stepped through implicitly.
 */
export function schemaFieldSemantics(root: SchemaNode): FieldSemanticsLookup {
  return (path) => {
    let node: SchemaNode | undefined = root;
    for (const segment of path) {
      node = fieldSchema(throughItems(node), segment);
      if (node === undefined) return undefined;
    }
    return semanticsOf(node);
  };
}

/** A list's fields are its items' fields (lists of lists included). */
function throughItems(schema: SchemaNode | undefined): SchemaNode | undefined {
  let node = schema;
  for (let items = node && itemsOf(node); items !== undefined; items = itemsOf(items)) node = items;
  return node;
}

function semanticsOf(schema: SchemaNode): FieldSemantics | undefined {
  const semantics: FieldSemantics = {};
  const listType = text(schema, "x-kubernetes-list-type");
  if (listType === "map")
    semantics.list = { type: "map", keys: stringList(schema, "x-kubernetes-list-map-keys") };
  else if (listType === "set") semantics.list = { type: "set" };
  else if (listType === "atomic") semantics.list = { type: "atomic" };
  const mapType = text(schema, "x-kubernetes-map-type");
  if (mapType === "atomic" || mapType === "granular") semantics.map = mapType;
  return semantics.list === undefined && semantics.map === undefined ? undefined : semantics;
}
