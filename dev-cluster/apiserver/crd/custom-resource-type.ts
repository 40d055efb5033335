import type { StatusCause } from "../api-error.js";
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ResourceType, ScaleSubresource } from "../resource-type.js";
import { printerColumnsConvertor } from "../table/printer-columns.js";
import { applySchemaDefaults } from "./defaulting.js";
import { schemaFieldSemantics } from "./field-semantics.js";
import { objectNameErrors } from "./object-name-validation.js";
import { pruneUnknownFields } from "./pruning.js";
import { scaleSpecErrors, scaleStatusErrors } from "./scale-validation.js";
import { property } from "./schema-nodes.js";
import { validateValue } from "./schema-validation.js";
import { selectableFieldsOf, selectableFieldValues } from "./selectable-fields.js";

function object(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

function text(parent: JsonObject | undefined, name: string): string {
  const value = parent?.[name];
  return typeof value === "string" ? value : "";
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function list(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** What a CRD says about all of its versions. */
interface CrdNames {
  group: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
}

function namesOf(spec: JsonObject): CrdNames {
  const names = object(spec.names);
  const kind = text(names, "kind");
  return {
    group: text(spec, "group"),
    kind,
    listKind: text(names, "listKind") || `${kind}List`,
    plural: text(names, "plural"),
    singular: text(names, "singular") || kind.toLowerCase(),
    namespaced: text(spec, "scope") === "Namespaced",
    shortNames: strings(names?.shortNames),
    categories: strings(names?.categories),
  };
}

function scaleOf(subresources: JsonObject | undefined): ScaleSubresource | undefined {
  const scale = object(subresources?.scale);
  if (scale === undefined) return undefined;
  const selector = text(scale, "labelSelectorPath");
  return {
    specReplicasPath: text(scale, "specReplicasPath"),
    statusReplicasPath: text(scale, "statusReplicasPath"),
    ...(selector === "" ? {} : { labelSelectorPath: selector }),
  };
}

/**
 * The resources a CustomResourceDefinition serves: one ResourceType per served version, whose
 * defaulting, pruning, validation, table and merge semantics come from that version's schema.
 */
export function customResourceTypes(crd: JsonObject): ResourceType[] {
  const spec = object(crd.spec) ?? {};
  const names = namesOf(spec);
  return list(spec.versions)
    .map((version) => object(version))
    .filter((version): version is JsonObject => version !== undefined && version.served === true)
    .map((version) => versionType(names, version));
}

function versionType(names: CrdNames, version: JsonObject): ResourceType {
  const schema = cloneJson(
    object(object(version.schema)?.openAPIV3Schema) ?? {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
    },
  );
  const subresources = object(version.subresources);
  const scale = scaleOf(subresources);
  const selectable = selectableFieldsOf(list(version.selectableFields));
  const statusSchema = property(schema, "status");
  return {
    ...names,
    version: text(version, "name"),
    builtin: false,
    statusSubresource: isJsonObject(subresources?.status),
    ...(scale === undefined ? {} : { scaleSubresource: scale }),
    otherSubresources: [],
    applyDefaults: (object) => applySchemaDefaults(object, schema),
    prune: (object) => pruneUnknownFields(object, schema, { isResourceRoot: true }),
    validate(object): StatusCause[] {
      return [
        ...objectNameErrors(object),
        ...validateValue(object, schema, ""),
        ...(scale === undefined
          ? []
          : [...scaleSpecErrors(object, scale), ...scaleStatusErrors(object, scale)]),
      ];
    },
    validateStatus(object): StatusCause[] {
      // Like kube, a status write is checked against the status schema alone.
      const causes: StatusCause[] = [];
      if (Object.hasOwn(object, "status") && statusSchema !== undefined) {
        causes.push(...validateValue(object.status ?? null, statusSchema, "", { fieldPrefix: "status" }));
      }
      if (scale !== undefined) causes.push(...scaleStatusErrors(object, scale));
      return causes;
    },
    selectableFields: (object) => selectableFieldValues(object, selectable),
    table: printerColumnsConvertor(list(version.additionalPrinterColumns)),
    fieldSemantics: schemaFieldSemantics(schema),
    openApiSchema: schema,
  };
}
