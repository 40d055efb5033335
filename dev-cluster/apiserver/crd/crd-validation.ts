import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { conversionErrors } from "./crd-conversion-validation.js";
import {
  apiApprovalErrors,
  crdMetadataErrors,
  groupErrors,
  namesFormatErrors,
  scopeErrors,
  specNamesErrors,
} from "./crd-names-validation.js";
import { customResourceValidationErrors } from "./crd-schema-validation.js";
import {
  type CrdSpecView,
  crdSpecView,
  statusEnabled,
  subresourcesFor,
  type VersionView,
} from "./crd-spec-view.js";
import {
  deprecationWarningErrors,
  printerColumnErrors,
  selectableFieldErrors,
  subresourceErrors,
} from "./crd-version-parts.js";
import { isDns1035Label } from "./dns-names.js";
import { child, index, invalid, RawValue, required } from "./field-errors.js";
import { goQuote } from "./go-format.js";

export { defaultCustomResourceDefinition } from "./crd-defaults.js";

function object(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

function text(parent: JsonObject | undefined, name: string): string {
  const value = parent?.[name];
  return typeof value === "string" ? value : "";
}

/**
 * Validates an apiextensions.k8s.io/v1 CustomResourceDefinition (after defaulting) as
 * kube-apiserver does on create, or on update when `old` is the stored CRD: metadata name,
 * group, scope, names, versions, per-version schemas (structural), subresources, printer
 * columns, selectable fields, conversion, and on update the immutable fields and stored versions.
 */
export function validateCustomResourceDefinition(crd: JsonObject, old?: JsonObject): StatusCause[] {
  const spec = object(crd.spec) ?? {};
  const view = crdSpecView(spec);
  return [
    ...crdMetadataErrors(crd),
    ...specErrors(view, old),
    ...(old === undefined ? [] : immutableFieldErrors(spec, object(old.spec) ?? {}, isEstablished(old))),
    ...namesFormatErrors(object(object(crd.status)?.acceptedNames), "status.acceptedNames"),
    ...(old === undefined ? [] : storedVersionErrors(crd, view)),
    ...apiApprovalErrors(crd, old),
    ...preserveUnknownFieldsErrors(spec, old),
  ];
}

function specErrors(view: CrdSpecView, old: JsonObject | undefined): StatusCause[] {
  const { spec } = view;
  const causes = [...groupErrors(text(spec, "group")), ...scopeErrors(text(spec, "scope"))];
  causes.push(...missingSchemaErrors(view, old));
  for (const version of view.versions) causes.push(...versionErrors(view, version));
  if (new Set(view.versions.map((version) => version.name)).size !== view.versions.length) {
    causes.push(invalid("spec.versions", versionsValue(view), "must contain unique version names"));
  }
  if (view.versions.filter((version) => version.storage).length !== 1) {
    causes.push(
      invalid(
        "spec.versions",
        versionsValue(view),
        "must have exactly one version marked as storage version",
      ),
    );
  }
  causes.push(...specNamesErrors(object(spec.names)));
  const anyStatus =
    statusEnabled(view.subresources) || view.versions.some((version) => statusEnabled(version.subresources));
  causes.push(...customResourceValidationErrors(view.validation, anyStatus, "spec.validation"));
  causes.push(...subresourceErrors(view.subresources, "spec.subresources"));
  view.columns.forEach((column, position) => {
    causes.push(...printerColumnErrors(column, index("spec.additionalPrinterColumns", position)));
  });
  if (view.selectableFields.length > 0) {
    causes.push(
      ...(view.validation === undefined
        ? [
            invalid(
              "spec.selectableFields",
              "",
              "selectableFields may only be set when validations.schema is included",
            ),
          ]
        : selectableFieldErrors(
            view.selectableFields,
            object(view.validation.openAPIV3Schema),
            "spec.selectableFields",
          )),
    );
  }
  causes.push(...conversionErrors(spec.conversion));
  return causes;
}

/** How Go prints the internal versions slice (`%#v`), shortened to what identifies each version. */
function versionsValue(view: CrdSpecView): RawValue {
  const type = "apiextensions.CustomResourceDefinitionVersion";
  const items = view.versions.map(
    (version) =>
      `${type}{Name:${goQuote(version.name)}, Served:${version.served}, Storage:${version.storage}, ...}`,
  );
  return new RawValue(`[]${type}{${items.join(", ")}}`);
}

function hasSchema(version: VersionView): boolean {
  return isJsonObject(object(version.raw.schema)?.openAPIV3Schema);
}

/** v1 requires a schema for every version; on update only if the stored CRD had them all. */
function missingSchemaErrors(view: CrdSpecView, old: JsonObject | undefined): StatusCause[] {
  if (isJsonObject(view.validation?.openAPIV3Schema)) return [];
  const oldVersions = crdSpecView(object(old?.spec) ?? {}).versions;
  const required_ = old === undefined || oldVersions.every(hasSchema);
  return view.versions
    .filter((version) => !hasSchema(version) && (required_ || version.served))
    .map((version) =>
      required(
        child(index("spec.versions", version.position), "schema", "openAPIV3Schema"),
        required_ ? "schemas are required" : "because otherwise all fields are pruned",
      ),
    );
}

function versionErrors(view: CrdSpecView, version: VersionView): StatusCause[] {
  const path = index("spec.versions", version.position);
  const causes: StatusCause[] = [];
  const nameProblems = isDns1035Label(version.name);
  if (nameProblems.length > 0)
    causes.push(invalid(child(path, "name"), version.name, nameProblems.join(",")));
  causes.push(...deprecationWarningErrors(version.raw, path));
  const status = statusEnabled(subresourcesFor(view, version));
  causes.push(...customResourceValidationErrors(version.schema, status, child(path, "schema")));
  causes.push(...subresourceErrors(version.subresources, child(path, "subresources")));
  version.columns.forEach((column, position) => {
    causes.push(...printerColumnErrors(column, index(child(path, "additionalPrinterColumns"), position)));
  });
  if (version.selectableFields.length > 0) {
    const schema = object(version.schema?.openAPIV3Schema);
    causes.push(
      ...(schema === undefined
        ? [
            invalid(
              child(path, "selectableFields"),
              "",
              "selectableFields may only be set when version.schema.openAPIV3Schema is not included",
            ),
          ]
        : selectableFieldErrors(version.selectableFields, schema, child(path, "selectableFields"))),
    );
  }
  return causes;
}

function isEstablished(crd: JsonObject): boolean {
  const conditions = object(crd.status)?.conditions;
  return (Array.isArray(conditions) ? conditions : []).some(
    (condition) => isJsonObject(condition) && condition.type === "Established" && condition.status === "True",
  );
}

/** The group and plural make up the resource's name; scope and kind shape its storage once established. */
function immutableFieldErrors(spec: JsonObject, oldSpec: JsonObject, established: boolean): StatusCause[] {
  const fields: [path: string, now: string, before: string][] = [
    ["spec.group", text(spec, "group"), text(oldSpec, "group")],
    ["spec.names.plural", text(object(spec.names), "plural"), text(object(oldSpec.names), "plural")],
  ];
  if (established) {
    fields.unshift(
      ["spec.scope", text(spec, "scope"), text(oldSpec, "scope")],
      ["spec.names.kind", text(object(spec.names), "kind"), text(object(oldSpec.names), "kind")],
    );
  }
  return fields
    .filter(([, now, before]) => now !== before)
    .map(([path, now]) => invalid(path, now, "field is immutable"));
}

/**
 * ValidateCustomResourceDefinitionStoredVersions on update. Like kube's PrepareForUpdate, the
 * current storage version counts as stored; a stored version may not disappear from spec.versions.
 */
function storedVersionErrors(crd: JsonObject, view: CrdSpecView): StatusCause[] {
  const stored = object(crd.status)?.storedVersions;
  const names = new Set(view.versions.map((version) => version.name));
  const causes: StatusCause[] = [];
  (Array.isArray(stored) ? stored : []).forEach((entry, position) => {
    if (typeof entry !== "string" || names.has(entry)) return;
    const detail = `missing from spec.versions; ${entry} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${entry} and removes ${entry} from status.storedVersions`;
    causes.push(invalid(index("status.storedVersions", position), entry, detail));
  });
  return causes;
}

/** v1 CRDs always prune; `spec.preserveUnknownFields: true` may only be kept, not newly set. */
function preserveUnknownFieldsErrors(spec: JsonObject, old: JsonObject | undefined): StatusCause[] {
  if (object(old?.spec)?.preserveUnknownFields === true || spec.preserveUnknownFields !== true) return [];
  const detail =
    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in openAPIV3Schema instead";
  return [invalid("spec.preserveUnknownFields", true, detail)];
}
