import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { ScaleSubresource } from "../resource-type.js";
import { invalid } from "./field-errors.js";
import { goBadValue, goNumber, goTypeName } from "./go-format.js";

const MAX_INT32 = 2147483647;

/** unstructured.NestedFieldNoCopy along a scale path like `.spec.replicas`, with its accessor errors. */
function lookup(object: JsonObject, path: string): { value: JsonValue | undefined; error?: string } {
  const fields = path.replace(/^\./, "").split(".");
  let node: JsonValue | undefined = object;
  for (const [position, field] of fields.entries()) {
    if (!isJsonObject(node)) {
      const at = `.${fields.slice(0, position).join(".")}`;
      return {
        value: undefined,
        error: `${at} accessor error: ${goText(node)} is of the type ${goTypeName(node)}, expected map[string]interface{}`,
      };
    }
    if (!Object.hasOwn(node, field)) return { value: undefined };
    node = node[field];
  }
  return { value: node };
}

/** `%v` of a decoded JSON value in an accessor error. */
function goText(value: JsonValue | undefined): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return goNumber(value);
  return value === undefined || value === null ? "<nil>" : goBadValue(value);
}

/** ValidateScaleSpec / the replicas half of ValidateScaleStatus: an int64 in int32 range. */
function replicasErrors(object: JsonObject, path: string): StatusCause[] {
  const { value, error } = lookup(object, path);
  if (error !== undefined) return [invalid(path, 0, error)];
  if (value === undefined || value === null) return [];
  if (typeof value !== "number" || !Number.isInteger(value)) {
    return [
      invalid(
        path,
        0,
        `${path} accessor error: ${goText(value)} is of the type ${goTypeName(value)}, expected int64`,
      ),
    ];
  }
  if (value < 0) return [invalid(path, value, "should be a non-negative integer")];
  if (value > MAX_INT32) return [invalid(path, value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

export function scaleSpecErrors(object: JsonObject, scale: ScaleSubresource): StatusCause[] {
  return replicasErrors(object, scale.specReplicasPath);
}

export function scaleStatusErrors(object: JsonObject, scale: ScaleSubresource): StatusCause[] {
  const causes = replicasErrors(object, scale.statusReplicasPath);
  const selectorPath = scale.labelSelectorPath;
  if (selectorPath !== undefined && selectorPath !== "") {
    const { value, error } = lookup(object, selectorPath);
    if (error !== undefined) causes.push(invalid(selectorPath, "", error));
    else if (value !== undefined && value !== null && typeof value !== "string") {
      const detail = `${selectorPath} accessor error: ${goText(value)} is of the type ${goTypeName(value)}, expected string`;
      causes.push(invalid(selectorPath, "", detail));
    }
  }
  return causes;
}
