import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import type { StatusCause } from "../api-error.js";
import type { JsonObject } from "../json.js";
import {
  duplicateField,
  forbiddenField,
  immutableField,
  indexPath,
  invalidField,
  requiredField,
} from "./field-errors.js";
import { booleanAt, objectAt, objectsAt, stringAt, valueAt } from "./json-read.js";

const configKeyPattern = /^[-._a-zA-Z0-9]+$/;
const configKeyMessage =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** validation.IsConfigMapKey, shared by ConfigMaps and Secrets. */
function configKeyProblems(key: string): string[] {
  const problems: string[] = [];
  if (key.length > 253) problems.push("must be no more than 253 characters");
  if (!configKeyPattern.test(key)) problems.push(configKeyMessage);
  if (key === "." || key === "..") problems.push(`must not be '${key}'`);
  else if (key.startsWith("..")) problems.push("must not start with '..'");
  return problems;
}

function keyCauses(object: JsonObject, field: string): StatusCause[] {
  return Object.keys(objectAt(object, field) ?? {}).flatMap((key) =>
    configKeyProblems(key).map((problem) => invalidField(indexPath(field, key), key, problem)),
  );
}

const immutableDetail = "field is immutable when `immutable` is set";

/** An object marked `immutable: true` keeps its data and the flag itself. */
function immutableDataCauses(
  object: JsonObject,
  old: JsonObject | undefined,
  fields: string[],
): StatusCause[] {
  if (!old || booleanAt(old, "immutable") !== true) return [];
  const causes: StatusCause[] = [];
  if (booleanAt(object, "immutable") !== true) causes.push(forbiddenField("immutable", immutableDetail));
  for (const field of fields) {
    if (!jsonEqual(valueAt(object, field), valueAt(old, field)))
      causes.push(forbiddenField(field, immutableDetail));
  }
  return causes;
}

export function validateConfigMap(configMap: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const binaryKeys = new Set(Object.keys(objectAt(configMap, "binaryData") ?? {}));
  const duplicates = Object.keys(objectAt(configMap, "data") ?? {})
    .filter((key) => binaryKeys.has(key))
    .map((key) => invalidField(indexPath("data", key), key, "duplicate of key present in binaryData"));
  return [
    ...keyCauses(configMap, "data"),
    ...keyCauses(configMap, "binaryData"),
    ...duplicates,
    ...immutableDataCauses(configMap, old, ["data", "binaryData"]),
  ];
}

export function validateSecret(secret: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const causes = [...keyCauses(secret, "data"), ...immutableDataCauses(secret, old, ["data"])];
  if (old && stringAt(secret, "type") !== stringAt(old, "type"))
    causes.push(immutableField("type", valueAt(secret, "type")));
  return causes;
}

function validateServicePorts(spec: JsonObject | undefined): StatusCause[] {
  const type = stringAt(spec, "type");
  const ports = objectsAt(spec, "ports");
  const headless = stringAt(spec, "clusterIP") === "None";
  if (ports.length === 0) return type === "ExternalName" || headless ? [] : [requiredField("spec.ports")];
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  ports.forEach((port, index) => {
    const path = indexPath("spec.ports", index);
    const name = stringAt(port, "name") ?? "";
    if (ports.length > 1 && name === "") causes.push(requiredField(`${path}.name`));
    else if (name !== "" && names.has(name)) causes.push(duplicateField(`${path}.name`, name));
    names.add(name);
    const number = valueAt(port, "port");
    if (typeof number === "number" && (number < 1 || number > 65535)) {
      causes.push(invalidField(`${path}.port`, number, "must be between 1 and 65535, inclusive"));
    }
  });
  return causes;
}

/**
 * Services: ports named when there are several and in range; on update an allocated clusterIP
 * stays (kube also copies it over when a replace leaves it out, which is left to the caller).
 */
export function validateService(service: JsonObject, old: JsonObject | undefined): StatusCause[] {
  const spec = objectAt(service, "spec");
  const causes = validateServicePorts(spec);
  if (old && stringAt(spec, "type") !== "ExternalName" && stringAt(old, "spec", "type") !== "ExternalName") {
    const oldIp = stringAt(old, "spec", "clusterIP") ?? "";
    const newIp = stringAt(spec, "clusterIP") ?? "";
    if (oldIp !== "" && newIp !== "" && newIp !== oldIp) causes.push(immutableField("spec.clusterIP", newIp));
  }
  return causes;
}
