import type { StatusCause } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { builtinFieldSemantics } from "../patch/builtin-field-semantics.js";
import type { ResourceType, ScaleSubresource, TableConvertor } from "../resource-type.js";
import { mergeCauses } from "./field-errors.js";
import { type NameRule, validateObjectName } from "./name-validation.js";
import { buildOpenApiSchema } from "./openapi-schema.js";
import { pruneUnknownFields } from "./prune-unknown-fields.js";
import { schemaCauses, type ValidatingModel } from "./schema-validation.js";
import { noFields, type SelectableFields } from "./selectable-fields.js";
import { nameAgeTable } from "./table-format.js";

/** The compact description of one built-in resource that `resourceTypeOf` turns into a ResourceType. */
export interface BuiltinKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  statusSubresource?: boolean;
  keepsStatusOnCreate?: boolean;
  scaleSubresource?: ScaleSubresource;
  otherSubresources?: string[];
  /** Verbs for discovery when not all of them (create-only virtual resources). */
  verbs?: readonly string[];
  /** The @kubernetes/client-node model describing the kind's fields (e.g. `V1Pod`). */
  model: string;
  /** The kubernetes-models class whose compiled schema validates the kind. */
  validator: ValidatingModel;
  nameRule: NameRule;
  /** What `kubectl explain <kind>` prints first. */
  description: string;
  applyDefaults?: (object: JsonObject) => void;
  /** Semantic checks beyond the schema (and beyond metadata.name). */
  validate?: (object: JsonObject, old: JsonObject | undefined) => StatusCause[];
  selectableFields?: SelectableFields;
  table?: TableConvertor;
}

const isStatusCause = (cause: StatusCause): boolean =>
  cause.field === "status" || (cause.field ?? "").startsWith("status.");

export function resourceTypeOf(spec: BuiltinKind): ResourceType {
  const fieldSemantics = builtinFieldSemantics(spec.group, spec.kind);
  let openApiSchema: JsonObject | undefined;
  return {
    group: spec.group,
    version: spec.version,
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    builtin: true,
    statusSubresource: spec.statusSubresource ?? false,
    ...(spec.keepsStatusOnCreate ? { keepsStatusOnCreate: true } : {}),
    ...(spec.scaleSubresource ? { scaleSubresource: spec.scaleSubresource } : {}),
    otherSubresources: spec.otherSubresources ?? [],
    ...(spec.verbs ? { verbs: [...spec.verbs] } : {}),
    applyDefaults: spec.applyDefaults ?? (() => {}),
    prune: (object) => pruneUnknownFields(object, spec.model),
    validate: (object, old) =>
      mergeCauses(
        validateObjectName(object, spec.nameRule),
        schemaCauses(spec.validator, spec.model, object),
        spec.validate?.(object, old) ?? [],
      ),
    validateStatus: (object) => schemaCauses(spec.validator, spec.model, object).filter(isStatusCause),
    selectableFields: spec.selectableFields ?? noFields,
    table: spec.table ?? nameAgeTable,
    fieldSemantics,
    // Built on first use: the inlined schema of a pod is tens of kilobytes.
    get openApiSchema(): JsonObject {
      openApiSchema ??= buildOpenApiSchema(spec.model, spec.description, fieldSemantics);
      return openApiSchema;
    },
  };
}
