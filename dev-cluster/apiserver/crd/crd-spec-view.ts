import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * A v1 CRD spec seen the way apiextensions validates it: converted to the internal version,
 * where per-version schema, subresources, printer columns and selectable fields that are the
 * same for every version move to the top level. That is why kube reports a single-version
 * CRD's schema problems under `spec.validation.openAPIV3Schema`.
 */
export interface CrdSpecView {
  spec: JsonObject;
  versions: VersionView[];
  /** The hoisted `CustomResourceValidation` (`{openAPIV3Schema}`), when all versions share it. */
  validation: JsonObject | undefined;
  subresources: JsonObject | undefined;
  columns: JsonValue[];
  selectableFields: JsonValue[];
}

export interface VersionView {
  position: number;
  name: string;
  served: boolean;
  storage: boolean;
  /** Left undefined/empty when hoisted to the top level. */
  schema: JsonObject | undefined;
  subresources: JsonObject | undefined;
  columns: JsonValue[];
  selectableFields: JsonValue[];
  raw: JsonObject;
}

function list(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function object(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/** apiequality.Semantic: a missing list equals an empty one. */
function allEqual(values: (JsonValue | undefined)[]): boolean {
  const normalized = values.map((value) => (Array.isArray(value) && value.length === 0 ? undefined : value));
  return normalized.every((value) => jsonEqual(value, normalized[0]));
}

export function crdSpecView(spec: JsonObject): CrdSpecView {
  const raws = list(spec.versions).map((version) => object(version) ?? {});
  const versions: VersionView[] = raws.map((raw, position) => ({
    position,
    name: typeof raw.name === "string" ? raw.name : "",
    served: raw.served === true,
    storage: raw.storage === true,
    schema: object(raw.schema),
    subresources: object(raw.subresources),
    columns: list(raw.additionalPrinterColumns),
    selectableFields: list(raw.selectableFields),
    raw,
  }));
  const view: CrdSpecView = {
    spec,
    versions,
    validation: undefined,
    subresources: undefined,
    columns: [],
    selectableFields: [],
  };
  const first = versions[0];
  if (first === undefined) return view;
  const schemasHoisted = allEqual(versions.map((version) => version.schema));
  if (schemasHoisted) {
    view.validation = first.schema;
    for (const version of versions) version.schema = undefined;
  }
  if (allEqual(versions.map((version) => version.subresources))) {
    view.subresources = first.subresources;
    for (const version of versions) version.subresources = undefined;
  }
  if (allEqual(versions.map((version) => version.columns))) {
    view.columns = first.columns;
    for (const version of versions) version.columns = [];
  }
  if (schemasHoisted && allEqual(versions.map((version) => version.selectableFields))) {
    view.selectableFields = first.selectableFields;
    for (const version of versions) version.selectableFields = [];
  }
  return view;
}

/** The subresources that apply to a version, wherever they are declared. */
export function subresourcesFor(view: CrdSpecView, version: VersionView): JsonObject | undefined {
  return view.subresources ?? version.subresources;
}

export function statusEnabled(subresources: JsonObject | undefined): boolean {
  return subresources !== undefined && isJsonObject(subresources.status);
}
