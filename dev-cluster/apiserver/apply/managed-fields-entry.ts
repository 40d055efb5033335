import { badRequest } from "../api-error.js";
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { fieldSetFromFieldsV1 } from "./field-set.js";

export type ManagedFieldsOperation = "Apply" | "Update";

/** One entry of `metadata.managedFields` (metav1.ManagedFieldsEntry). */
export interface ManagedFieldsEntry {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  /** RFC 3339, seconds precision; optional on the wire, always set by this server. */
  time?: string;
  fieldsType: "FieldsV1";
  fieldsV1: JsonObject;
  subresource?: string;
}

function optionalString(entry: JsonObject, name: string, at: string): string | undefined {
  const value = entry[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`${at}.${name} must be a string`);
  return value;
}

function decodeEntry(value: JsonValue, at: string): ManagedFieldsEntry {
  if (!isJsonObject(value)) throw new Error(`${at} must be an object`);
  const operation = value.operation;
  if (operation !== "Apply" && operation !== "Update") {
    throw new Error(`${at}.operation must be "Apply" or "Update"`);
  }
  if (value.fieldsType !== "FieldsV1") throw new Error(`${at}.fieldsType: only FieldsV1 is supported`);
  const fieldsV1 = value.fieldsV1 ?? {};
  if (!isJsonObject(fieldsV1)) throw new Error(`${at}.fieldsV1 must be an object`);
  fieldSetFromFieldsV1(fieldsV1); // validates the paths
  const entry: ManagedFieldsEntry = {
    manager: optionalString(value, "manager", at) ?? "",
    operation,
    apiVersion: optionalString(value, "apiVersion", at) ?? "",
    fieldsType: "FieldsV1",
    fieldsV1,
  };
  const time = optionalString(value, "time", at);
  if (time !== undefined) entry.time = time;
  const subresource = optionalString(value, "subresource", at);
  if (subresource) entry.subresource = subresource;
  return entry;
}

/**
 * Reads `metadata.managedFields` of an object; absent means none. Throws a 400 BadRequest
 * (with the parse error as cause) when an entry is malformed.
 */
export function decodeManagedFields(object: JsonObject): ManagedFieldsEntry[] {
  const metadata = object.metadata;
  const raw = isJsonObject(metadata) ? metadata.managedFields : undefined;
  if (raw === undefined || raw === null) return [];
  try {
    if (!Array.isArray(raw)) throw new Error("metadata.managedFields must be a list");
    return raw.map((entry, i) => decodeEntry(entry, `metadata.managedFields[${i}]`));
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw badRequest(`error decoding managed fields: ${why}`, { cause });
  }
}

function timeSeconds(entry: ManagedFieldsEntry): number {
  const millis = entry.time ? Date.parse(entry.time) : Number.NaN;
  return Number.isNaN(millis) ? 0 : Math.floor(millis / 1000);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Upstream's order: Apply before Update, then oldest first, then by manager, version, subresource. */
export function compareEntries(a: ManagedFieldsEntry, b: ManagedFieldsEntry): number {
  return (
    compareStrings(a.operation, b.operation) ||
    timeSeconds(a) - timeSeconds(b) ||
    compareStrings(a.manager, b.manager) ||
    compareStrings(a.apiVersion, b.apiVersion) ||
    compareStrings(a.subresource ?? "", b.subresource ?? "")
  );
}

/** The wire form, sorted, with keys in metav1's order. */
export function encodeManagedFields(entries: readonly ManagedFieldsEntry[]): JsonObject[] {
  return [...entries].sort(compareEntries).map((entry) => {
    const json: JsonObject = {
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
    };
    if (entry.time !== undefined) json.time = entry.time;
    json.fieldsType = entry.fieldsType;
    json.fieldsV1 = structuredClone(entry.fieldsV1);
    if (entry.subresource) json.subresource = entry.subresource;
    return json;
  });
}

/** A copy of `object` whose `metadata.managedFields` are `entries` (removed when there are none). */
export function setManagedFields(object: JsonObject, entries: readonly ManagedFieldsEntry[]): JsonObject {
  const copy = cloneJson(object);
  const metadata: JsonObject = isJsonObject(copy.metadata) ? copy.metadata : {};
  if (entries.length > 0) metadata.managedFields = encodeManagedFields(entries);
  else delete metadata.managedFields;
  copy.metadata = metadata;
  return copy;
}
