import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { isDns1035Label, isDns1123Subdomain, nameIsDnsSubdomain } from "./dns-names.js";
import { child, index, invalid, key, notSupported, required } from "./field-errors.js";

function text(object: JsonObject | undefined, name: string): string {
  const value = object?.[name];
  return typeof value === "string" ? value : "";
}

function object(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

/**
 * The CRD's name: a DNS subdomain that is `<plural>.<group>`. The rest of ObjectMeta is the
 * generic machinery's (which also clears a namespace on cluster-scoped objects).
 */
export function crdMetadataErrors(crd: JsonObject): StatusCause[] {
  const metadata = object(crd.metadata);
  const spec = object(crd.spec);
  const name = text(metadata, "name");
  const causes: StatusCause[] = [];
  if (name === "" && text(metadata, "generateName") === "") {
    causes.push(required("metadata.name", "name or generateName is required"));
  } else if (name !== "") {
    const problems = nameIsDnsSubdomain(name, false);
    const expected = `${text(object(spec?.names), "plural")}.${text(spec, "group")}`;
    if (name !== expected) problems.push(`must be spec.names.plural+"."+spec.group`);
    for (const problem of problems) causes.push(invalid("metadata.name", name, problem));
  }
  return causes;
}

export function groupErrors(group: string): StatusCause[] {
  if (group === "") return [required("spec.group")];
  const problems = isDns1123Subdomain(group);
  if (problems.length > 0) return [invalid("spec.group", group, problems.join(","))];
  if (!group.includes(".")) return [invalid("spec.group", group, "should be a domain with at least one dot")];
  return [];
}

export function scopeErrors(scope: string): StatusCause[] {
  if (scope === "") return [required("spec.scope")];
  if (scope === "Cluster" || scope === "Namespaced") return [];
  return [notSupported("spec.scope", scope, ["Cluster", "Namespaced"])];
}

/** spec.names: the four names are required, on top of ValidateCustomResourceDefinitionNames. */
export function specNamesErrors(names: JsonObject | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const name of ["plural", "singular", "kind", "listKind"]) {
    if (text(names, name) === "") causes.push(required(child("spec.names", name)));
  }
  return [...causes, ...namesFormatErrors(names, "spec.names")];
}

function labelErrors(value: string, field: string, mixedCase: boolean): StatusCause[] {
  if (value === "") return [];
  const problems = isDns1035Label(mixedCase ? value.toLowerCase() : value);
  if (problems.length === 0) return [];
  const detail = problems.join(",");
  return [
    invalid(field, value, mixedCase ? `may have mixed case, but should otherwise match: ${detail}` : detail),
  ];
}

/** ValidateCustomResourceDefinitionNames, for spec.names and status.acceptedNames. */
export function namesFormatErrors(names: JsonObject | undefined, path: string): StatusCause[] {
  const kind = text(names, "kind");
  const listKind = text(names, "listKind");
  const causes = [
    ...labelErrors(text(names, "plural"), child(path, "plural"), false),
    ...labelErrors(text(names, "singular"), child(path, "singular"), false),
    ...labelErrors(kind, child(path, "kind"), true),
    ...labelErrors(listKind, child(path, "listKind"), true),
  ];
  for (const [field, entries] of [
    ["shortNames", names?.shortNames],
    ["categories", names?.categories],
  ] as const) {
    (Array.isArray(entries) ? entries : []).forEach((entry, position) => {
      const value = typeof entry === "string" ? entry : "";
      for (const problem of isDns1035Label(value)) {
        causes.push(invalid(index(child(path, field), position), value, problem));
      }
    });
  }
  if (kind !== "" && kind === listKind) {
    causes.push(invalid(child(path, "listKind"), listKind, "kind and listKind may not be the same"));
  }
  return causes;
}

const APPROVAL_ANNOTATION = "api-approved.kubernetes.io";
const APPROVAL_DOCS = "see https://github.com/kubernetes/enhancements/pull/1111";

function isProtectedGroup(group: string): boolean {
  return ["k8s.io", "kubernetes.io"].some((domain) => group === domain || group.endsWith(`.${domain}`));
}

type ApprovalState = "missing" | "bypassed" | "approved" | "invalid";

function approvalState(crd: JsonObject | undefined): ApprovalState {
  const annotations = object(object(crd?.metadata)?.annotations);
  if (annotations === undefined || !Object.hasOwn(annotations, APPROVAL_ANNOTATION)) return "missing";
  const value = text(annotations, APPROVAL_ANNOTATION);
  if (value.startsWith("unapproved")) return "bypassed";
  return URL.canParse(value) && /^https?:\/\/[^/]/.test(value) ? "approved" : "invalid";
}

/** validateAPIApproval: CRDs in the kubernetes.io and k8s.io groups need an approval annotation. */
export function apiApprovalErrors(crd: JsonObject, old: JsonObject | undefined): StatusCause[] {
  if (!isProtectedGroup(text(object(crd.spec), "group"))) return [];
  const state = approvalState(crd);
  if (old !== undefined && approvalState(old) === state) return [];
  const field = key("metadata.annotations", APPROVAL_ANNOTATION);
  if (state === "missing") {
    return [
      required(
        field,
        `protected groups must have approval annotation "${APPROVAL_ANNOTATION}", ${APPROVAL_DOCS}`,
      ),
    ];
  }
  if (state === "invalid") {
    const value = text(object(object(crd.metadata)?.annotations), APPROVAL_ANNOTATION);
    const detail = `protected groups must have approval annotation "${APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", ${APPROVAL_DOCS}`;
    return [invalid(field, value, detail)];
  }
  return [];
}
