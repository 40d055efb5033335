import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { StatusCause } from "../api-error.js";
import { child, forbidden, index, invalid, key, required } from "./field-errors.js";
import { valueValidationErrors } from "./junctor-rules.js";
import {
  additionalPropertiesOf,
  flag,
  hasProperties,
  itemsOf,
  junctor,
  notOf,
  propertiesOf,
  property,
  type SchemaNode,
  schemaType,
} from "./schema-nodes.js";

/** Where a schema node sits, which decides how kube words a missing type. */
export type Level = "root" | "item" | "field";

const MISSING_TYPE: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

/**
 * schema.validateStructuralInvariants: every node has a type (unless int-or-string or
 * preserve-unknown-fields), arrays have items, junctors only constrain values, embedded
 * resources are objects, and metadata is left to the server.
 */
export function structuralInvariantErrors(schema: SchemaNode, level: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = schemaType(schema);
  const items = itemsOf(schema);
  if (type === "array" && items === undefined)
    causes.push(required(child(path, "items"), "must be specified"));
  if (items !== undefined) causes.push(...structuralInvariantErrors(items, "item", child(path, "items")));
  for (const [name, propertySchema] of propertiesOf(schema)) {
    causes.push(...structuralInvariantErrors(propertySchema, "field", key(child(path, "properties"), name)));
  }
  const additional = additionalPropertiesOf(schema);
  if (additional !== undefined) {
    if (level === "root")
      causes.push(forbidden(child(path, "additionalProperties"), "must not be used at the root"));
    if (additional.schema !== undefined) {
      causes.push(
        ...structuralInvariantErrors(additional.schema, "field", child(path, "additionalProperties")),
      );
    }
  }
  causes.push(...extensionErrors(schema, path));
  causes.push(
    ...valueValidationErrors(schema, isIntOrStringAnyOf(schema), isIntOrStringAllOf(schema), level, path),
  );
  causes.push(...typeErrors(schema, level, path));
  causes.push(...metadataErrors(schema, level, path));
  return causes;
}

const INT_OR_STRING_ANY_OF = [{ type: "integer" }, { type: "string" }];

/** `anyOf: [{type: integer}, {type: string}]`, the one junctor that may carry types. */
function isIntOrStringAnyOf(schema: SchemaNode): boolean {
  return jsonEqual(junctor(schema, "anyOf"), INT_OR_STRING_ANY_OF);
}

function isIntOrStringAllOf(schema: SchemaNode): boolean {
  const first = junctor(schema, "allOf")[0];
  return first !== undefined && jsonEqual(junctor(first, "anyOf"), INT_OR_STRING_ANY_OF);
}

function extensionErrors(schema: SchemaNode, path: string): StatusCause[] {
  if (!flag(schema, "x-kubernetes-int-or-string")) return [];
  const causes: StatusCause[] = [];
  for (const extension of ["x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"]) {
    if (flag(schema, extension)) {
      causes.push(
        invalid(child(path, extension), true, "must be false if x-kubernetes-int-or-string is true"),
      );
    }
  }
  return causes;
}

function typeErrors(schema: SchemaNode, level: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = schemaType(schema);
  const embedded = flag(schema, "x-kubernetes-embedded-resource");
  const preserve = flag(schema, "x-kubernetes-preserve-unknown-fields");
  if (embedded && type !== "object") {
    const detail = "must be object if x-kubernetes-embedded-resource is true";
    causes.push(
      type === "" ? required(child(path, "type"), detail) : invalid(child(path, "type"), type, detail),
    );
  } else if (type === "" && !flag(schema, "x-kubernetes-int-or-string") && !preserve) {
    causes.push(required(child(path, "type"), MISSING_TYPE[level]));
  }
  if (embedded && additionalPropertiesOf(schema) !== undefined) {
    causes.push(
      forbidden(
        child(path, "additionalProperties"),
        "must not be used if x-kubernetes-embedded-resource is set",
      ),
    );
  }
  if (level === "root" && type !== "" && type !== "object")
    causes.push(invalid(child(path, "type"), type, "must be object at the root"));
  if (embedded && !preserve && !hasProperties(schema)) {
    const detail =
      "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields";
    causes.push(required(child(path, "properties"), detail));
  }
  return causes;
}

/** TypeMeta and ObjectMeta of a resource (the root or an embedded one) are the server's business. */
function metadataErrors(schema: SchemaNode, level: Level, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const isResource = level === "root" || flag(schema, "x-kubernetes-embedded-resource");
  if (isResource) {
    for (const name of ["kind", "apiVersion"]) {
      const typeMeta = property(schema, name);
      if (typeMeta !== undefined && schemaType(typeMeta) !== "string") {
        causes.push(
          invalid(
            child(key(child(path, "properties"), name), "type"),
            schemaType(typeMeta),
            "must be string",
          ),
        );
      }
    }
  }
  const metadata = property(schema, "metadata");
  if (metadata === undefined) return causes;
  const metadataPath = key(child(path, "properties"), "metadata");
  if (isResource && schemaType(metadata) !== "object") {
    causes.push(invalid(child(metadataPath, "type"), schemaType(metadata), "must be object"));
  }
  if (level === "root" && !onlyConstrainsNames(metadata)) {
    const detail =
      "must not specify anything other than name and generateName, but metadata is implicitly specified";
    causes.push(forbidden(metadataPath, detail));
  }
  return causes;
}

/** Root metadata may have a type, a default, and properties for name and/or generateName only. */
function onlyConstrainsNames(metadata: SchemaNode): boolean {
  const names = propertiesOf(metadata).map(([name]) => name);
  const onlyNames = names.length <= 2 && names.every((name) => name === "name" || name === "generateName");
  return Object.keys(metadata).every((keyword) => {
    if (keyword === "type" || keyword === "default") return true;
    if (keyword === "properties") return onlyNames;
    return false;
  });
}

/**
 * schema.validateStructuralCompleteness: a field or items constrained inside a junctor of the
 * root must also be declared outside of it. Like upstream, only the root's junctors are checked.
 */
export function completenessErrors(schema: SchemaNode, path: string): StatusCause[] {
  return junctorCompleteness(schema, schema, path, path);
}

function junctorCompleteness(
  validation: SchemaNode,
  structural: SchemaNode,
  sPath: string,
  vPath: string,
): StatusCause[] {
  const causes: StatusCause[] = [];
  const not = notOf(validation);
  if (not !== undefined) causes.push(...nestedCompleteness(not, structural, sPath, child(vPath, "not")));
  for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
    junctor(validation, keyword).forEach((branch, position) => {
      causes.push(...nestedCompleteness(branch, structural, sPath, index(child(vPath, keyword), position)));
    });
  }
  return causes;
}

function nestedCompleteness(
  validation: SchemaNode,
  structural: SchemaNode | undefined,
  sPath: string,
  vPath: string,
): StatusCause[] {
  if (structural === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const causes = junctorCompleteness(validation, structural, sPath, vPath);
  const items = itemsOf(validation);
  if (items !== undefined)
    causes.push(
      ...nestedCompleteness(items, itemsOf(structural), child(sPath, "items"), child(vPath, "items")),
    );
  for (const [name, propertySchema] of propertiesOf(validation)) {
    const propertySPath = key(child(sPath, "properties"), name);
    const propertyVPath = key(child(vPath, "properties"), name);
    const declared = property(structural, name);
    if (declared === undefined)
      causes.push(required(propertySPath, `because it is defined in ${propertyVPath}`));
    else causes.push(...nestedCompleteness(propertySchema, declared, propertySPath, propertyVPath));
  }
  return causes;
}
