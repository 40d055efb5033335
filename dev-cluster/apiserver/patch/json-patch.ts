import fastJsonPatch, { type Operation } from "fast-json-patch";
import { ApiError, badRequest } from "../api-error.js";
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { arrayIndexOf, childOf, JsonPointerError, parseJsonPointer, resolveTokens } from "./json-pointer.js";

/** kube-apiserver refuses JSON patches with more operations than this (maxJSONPatchOperations). */
const MAX_OPERATIONS = 10000;

const OPERATION_NAMES = new Set(["add", "remove", "replace", "move", "copy", "test"]);

type OperationName = "add" | "remove" | "replace" | "move" | "copy" | "test";

interface DecodedOperation {
  op: OperationName;
  path: string;
  tokens: string[];
  from?: string;
  fromTokens?: string[];
  value?: JsonValue;
}

/**
 * Applies an RFC 6902 JSON patch to a copy of `document`. A body that is not an array of
 * operation objects is a 400; an operation that cannot apply (missing path, failed `test`,
 * out-of-range index, a path through `__proto__`) is a 422 Invalid, as kube-apiserver answers.
 */
export function applyJsonPatch(document: JsonObject, patch: unknown): JsonObject {
  const operations = decodeJsonPatch(patch).map(decodeOperation);
  let current: JsonValue = cloneJson(document);
  for (const operation of operations) {
    checkApplies(current, operation);
    current = applyChecked(current, operation);
  }
  if (!isJsonObject(current)) throw rejected("the patched document is not a JSON object");
  return current;
}

function decodeJsonPatch(patch: unknown): Record<string, unknown>[] {
  if (!Array.isArray(patch)) {
    throw badRequest(`a JSON patch must be an array of operations, got ${describeType(patch)}`);
  }
  if (patch.length > MAX_OPERATIONS) {
    throw new ApiError(
      413,
      "RequestEntityTooLarge",
      `The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`,
    );
  }
  return patch.map((operation: unknown, index) => {
    if (typeof operation !== "object" || operation === null || Array.isArray(operation)) {
      throw badRequest(`JSON patch operation ${index} must be an object, got ${describeType(operation)}`);
    }
    return operation as Record<string, unknown>;
  });
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function decodeOperation(raw: Record<string, unknown>, index: number): DecodedOperation {
  const { op, path, from, value } = raw;
  if (typeof op !== "string" || !OPERATION_NAMES.has(op)) {
    throw rejected(`operation ${index}: unexpected kind ${JSON.stringify(op ?? null)}`);
  }
  const name = op as OperationName;
  if (typeof path !== "string") throw rejected(`operation ${index} (${name}): missing "path"`);
  const decoded: DecodedOperation = { op: name, path, tokens: pointerTokens(name, path) };
  if (name === "move" || name === "copy") {
    if (typeof from !== "string") throw rejected(`operation ${index} (${name}): missing "from"`);
    decoded.from = from;
    decoded.fromTokens = pointerTokens(name, from);
  }
  if (name === "add" || name === "replace" || name === "test") {
    if (value === undefined) throw rejected(`operation ${index} (${name}): missing "value"`);
    decoded.value = value as JsonValue;
  }
  return decoded;
}

function pointerTokens(op: OperationName, pointer: string): string[] {
  try {
    return parseJsonPointer(pointer);
  } catch (error) {
    if (error instanceof JsonPointerError) throw doesNotApply(op, error.message, error);
    throw error;
  }
}

/**
 * Checks, against own properties only, that the operation's locations exist; fast-json-patch
 * would otherwise follow inherited properties (e.g. `/toString`) or create paths silently.
 */
function checkApplies(document: JsonValue, operation: DecodedOperation): void {
  const { op, path, tokens } = operation;
  if (operation.fromTokens) {
    if (resolveTokens(document, operation.fromTokens) === undefined) {
      throw doesNotApply(op, `doc is missing from path: ${JSON.stringify(operation.from)}`);
    }
    if (op === "move" && path.startsWith(`${operation.from}/`)) {
      throw doesNotApply(
        op,
        `cannot move ${JSON.stringify(operation.from)} into its own child ${JSON.stringify(path)}`,
      );
    }
  }
  if (tokens.length === 0) {
    if (op === "add" || op === "replace" || op === "test") return;
    throw doesNotApply(op, "the whole document cannot be removed or overwritten this way");
  }
  const parent = resolveTokens(document, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1] ?? "";
  if (parent === undefined || (!Array.isArray(parent) && !isJsonObject(parent))) {
    throw doesNotApply(op, `doc is missing path: ${JSON.stringify(path)}`);
  }
  if (op === "add" || op === "move" || op === "copy") {
    if (Array.isArray(parent)) checkInsertIndex(op, path, parent, last);
    return;
  }
  if (childOf(parent, last) === undefined)
    throw doesNotApply(op, `doc is missing path: ${JSON.stringify(path)}`);
}

function checkInsertIndex(op: OperationName, path: string, array: JsonValue[], token: string): void {
  if (token === "-") return;
  const index = arrayIndexOf(token);
  if (index === undefined) throw doesNotApply(op, `${JSON.stringify(path)} does not end in an array index`);
  if (index > array.length) {
    throw doesNotApply(
      op,
      `index ${index} is out of bounds for an array of length ${array.length} at ${JSON.stringify(path)}`,
    );
  }
}

function applyChecked(document: JsonValue, operation: DecodedOperation): JsonValue {
  const libraryOperation = structuredClone({
    op: operation.op,
    path: operation.path,
    ...(operation.from === undefined ? {} : { from: operation.from }),
    ...(operation.value === undefined ? {} : { value: operation.value }),
  }) as Operation;
  try {
    return fastJsonPatch.applyOperation(document, libraryOperation, true, true, true).newDocument;
  } catch (error) {
    if (error instanceof fastJsonPatch.JsonPatchError) {
      const detail =
        error.name === "TEST_OPERATION_FAILED" ? `testing value ${operation.path} failed` : error.message;
      throw doesNotApply(operation.op, detail, error);
    }
    if (error instanceof TypeError) throw doesNotApply(operation.op, error.message, error);
    throw error;
  }
}

function doesNotApply(op: OperationName, detail: string, cause?: unknown): ApiError {
  return rejected(`jsonpatch ${op} operation does not apply: ${detail}`, cause);
}

function rejected(message: string, cause?: unknown): ApiError {
  return new ApiError(422, "Invalid", message, undefined, cause === undefined ? undefined : { cause });
}
