import type { StatusCause } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { invalidField, requiredField } from "./field-errors.js";
import { stringAt } from "./json-read.js";

/**
 * Which name rule a kind's `metadata.name` follows, as in k8s.io/apimachinery's validation:
 * most kinds take a DNS-1123 subdomain, namespaces a DNS-1123 label, services a DNS-1035 label,
 * and RBAC objects and APIServices any path segment (`system:controller:...`, `v1.`).
 */
export type NameRule = "subdomain" | "label" | "dns1035Label" | "pathSegment";

const subdomainPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1035Pattern = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const subdomainMessage =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMessage =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1035Message =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

function lengthProblem(value: string, max: number): string[] {
  return value.length > max ? [`must be no more than ${max} characters`] : [];
}

export function dnsSubdomainProblems(value: string): string[] {
  return [...lengthProblem(value, 253), ...(subdomainPattern.test(value) ? [] : [subdomainMessage])];
}

export function dnsLabelProblems(value: string): string[] {
  return [...lengthProblem(value, 63), ...(labelPattern.test(value) ? [] : [labelMessage])];
}

export function dns1035LabelProblems(value: string): string[] {
  return [...lengthProblem(value, 63), ...(dns1035Pattern.test(value) ? [] : [dns1035Message])];
}

export function pathSegmentProblems(value: string): string[] {
  if (value === "." || value === "..") return [`may not be '${value}'`];
  return ["/", "%"].filter((c) => value.includes(c)).map((c) => `may not contain '${c}'`);
}

const problemsByRule: Readonly<Record<NameRule, (value: string) => string[]>> = {
  subdomain: dnsSubdomainProblems,
  label: dnsLabelProblems,
  dns1035Label: dns1035LabelProblems,
  pathSegment: pathSegmentProblems,
};

/** Checks `metadata.name` (the caller has already turned generateName into a name). */
export function validateObjectName(object: JsonObject, rule: NameRule): StatusCause[] {
  const name = stringAt(object, "metadata", "name") ?? "";
  if (name === "") return [requiredField("metadata.name", "name or generateName is required")];
  return problemsByRule[rule](name).map((problem) => invalidField("metadata.name", name, problem));
}
