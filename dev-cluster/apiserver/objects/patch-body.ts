import { parse as parseYaml } from "yaml";
import { badRequest, unsupportedMediaType } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { applyJsonPatch } from "../patch/json-patch.js";
import { applyMergePatch } from "../patch/merge-patch.js";
import { applyStrategicMergePatch } from "../patch/strategic-merge-patch.js";
import type { ResourceType } from "../resource-type.js";

export type PatchType = "json" | "merge" | "strategic" | "apply";

const PATCH_TYPES: Record<string, PatchType> = {
  "application/json-patch+json": "json",
  "application/merge-patch+json": "merge",
  "application/strategic-merge-patch+json": "strategic",
  "application/apply-patch+yaml": "apply",
  "application/apply-patch+json": "apply",
};

export function patchTypeOf(type: ResourceType, contentType: string | undefined): PatchType {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const patchType = PATCH_TYPES[mediaType];
  const accepted = type.builtin
    ? Object.keys(PATCH_TYPES)
    : Object.keys(PATCH_TYPES).filter((t) => !t.includes("strategic"));
  if (patchType === undefined || (patchType === "strategic" && !type.builtin)) {
    throw unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
    );
  }
  return patchType;
}

/** Parses a patch body: JSON for the patch types, YAML (of which JSON is a subset) for apply. */
export function parsePatchBody(patchType: PatchType, body: string): JsonValue {
  try {
    return (patchType === "apply" ? parseYaml(body) : JSON.parse(body)) as JsonValue;
  } catch (error) {
    throw badRequest(`error decoding patch: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** Applies a JSON, merge or strategic merge patch to a copy of `current`. */
export function applyPatch(
  type: ResourceType,
  current: JsonObject,
  patchType: PatchType,
  patch: JsonValue,
): JsonObject {
  switch (patchType) {
    case "json":
      return applyJsonPatch(current, patch);
    case "merge": {
      const result = applyMergePatch(current, patch);
      if (!isJsonObject(result)) throw badRequest("a merge patch must be a JSON object");
      return result;
    }
    case "strategic":
      if (!isJsonObject(patch)) throw badRequest("a strategic merge patch must be a JSON object");
      return applyStrategicMergePatch(current, patch, type.fieldSemantics);
    case "apply":
      throw new Error("apply patches are handled by server-side apply");
  }
}
