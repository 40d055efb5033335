import { type ApiError, badRequest } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { ownValue } from "./own-property.js";

/** The directive keys of a strategic merge patch (k8s.io/apimachinery strategicpatch). */
export const PATCH_DIRECTIVE = "$patch";
export const RETAIN_KEYS_DIRECTIVE = "$retainKeys";
export const SET_ELEMENT_ORDER_PREFIX = "$setElementOrder/";
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = "$deleteFromPrimitiveList/";

/**
 * `$`-prefixed keys that are data, not directives: JSON schema keywords inside a CRD's
 * openAPIV3Schema. Any other `$` key is an unknown directive and the patch is refused rather than
 * storing the directive as a field.
 */
const LITERAL_DOLLAR_FIELDS = new Set(["$ref", "$schema"]);

export type PatchDirective = "replace" | "merge" | "delete";

/** What one key of a patch map stands for. */
export type PatchKey =
  | { kind: "field"; field: string }
  | { kind: "patch" }
  | { kind: "retainKeys" }
  | { kind: "setElementOrder"; field: string }
  | { kind: "deleteFromPrimitiveList"; field: string };

export function classifyPatchKey(key: string, path: readonly string[]): PatchKey {
  if (!key.startsWith("$") || LITERAL_DOLLAR_FIELDS.has(key)) return { kind: "field", field: key };
  if (key === PATCH_DIRECTIVE) return { kind: "patch" };
  if (key === RETAIN_KEYS_DIRECTIVE) return { kind: "retainKeys" };
  if (key.startsWith(SET_ELEMENT_ORDER_PREFIX)) {
    return { kind: "setElementOrder", field: directiveField(key, SET_ELEMENT_ORDER_PREFIX, path) };
  }
  if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
    return {
      kind: "deleteFromPrimitiveList",
      field: directiveField(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX, path),
    };
  }
  throw patchError(path, `unknown strategic merge patch directive ${JSON.stringify(key)}`);
}

function directiveField(key: string, prefix: string, path: readonly string[]): string {
  const field = key.slice(prefix.length);
  if (field === "") throw patchError(path, `directive ${JSON.stringify(key)} names no field`);
  return field;
}

/** The `$patch` directive of a patch map, validated; undefined when there is none. */
export function patchDirectiveOf(map: JsonObject, path: readonly string[]): PatchDirective | undefined {
  const directive = ownValue(map, PATCH_DIRECTIVE);
  if (directive === undefined) return undefined;
  if (directive === "replace" || directive === "merge" || directive === "delete") return directive;
  throw patchError(path, `unknown patch type: ${JSON.stringify(directive)} in map: ${JSON.stringify(map)}`);
}

/** True for list items that only carry a directive (`$patch: delete|replace`) and are no data. */
export function isDirectiveItem(item: JsonValue): boolean {
  return isJsonObject(item) && Object.hasOwn(item, PATCH_DIRECTIVE) && item[PATCH_DIRECTIVE] !== "merge";
}

/**
 * A malformed strategic merge patch. kube-apiserver answers these with 400 BadRequest
 * (interpretStrategicMergePatchError); the message names the field so the client can find it.
 */
export function patchError(path: readonly string[], message: string, cause?: unknown): ApiError {
  const where = path.length > 0 ? `${path.join(".")}: ` : "";
  return badRequest(`strategic merge patch: ${where}${message}`, cause === undefined ? undefined : { cause });
}
