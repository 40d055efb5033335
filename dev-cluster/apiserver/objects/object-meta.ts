import { randomUUID } from "node:crypto";
import { wireTime } from "../../../runtime/clock/wire-time.js";
import { badRequest } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/** Reads `metadata` of an object that has been checked to have one. */
export function meta(object: JsonObject): JsonObject {
  const metadata = object.metadata;
  if (!isJsonObject(metadata)) throw badRequest("metadata must be an object");
  return metadata;
}

export function stringField(object: JsonObject | undefined, field: string): string | undefined {
  const value = object?.[field];
  return typeof value === "string" ? value : undefined;
}

export function nameOf(object: JsonObject): string {
  return stringField(meta(object), "name") ?? "";
}

export function namespaceOf(object: JsonObject): string {
  return stringField(meta(object), "namespace") ?? "";
}

export function uidOf(object: JsonObject): string {
  return stringField(meta(object), "uid") ?? "";
}

export function finalizersOf(object: JsonObject): string[] {
  const finalizers = meta(object).finalizers;
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === "string") : [];
}

export function labelsOf(object: JsonObject): Record<string, string> {
  const labels = meta(object).labels;
  if (!isJsonObject(labels)) return {};
  return Object.fromEntries(
    Object.entries(labels).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export function ownerReferencesOf(object: JsonObject): OwnerReference[] {
  const refs = meta(object).ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.filter(isJsonObject).map((ref) => ({
    apiVersion: String(ref.apiVersion ?? ""),
    kind: String(ref.kind ?? ""),
    name: String(ref.name ?? ""),
    uid: String(ref.uid ?? ""),
    ...(typeof ref.controller === "boolean" ? { controller: ref.controller } : {}),
    ...(typeof ref.blockOwnerDeletion === "boolean" ? { blockOwnerDeletion: ref.blockOwnerDeletion } : {}),
  }));
}

export function isBeingDeleted(object: JsonObject): boolean {
  return typeof meta(object).deletionTimestamp === "string";
}

const GENERATED_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** The 5-character random suffix kube-apiserver appends to generateName. */
export function generatedNameSuffix(): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) {
    suffix += GENERATED_NAME_ALPHABET[Math.floor(Math.random() * GENERATED_NAME_ALPHABET.length)];
  }
  return suffix;
}

/** Metadata fields only the server sets; clients' values are ignored on create. */
export function initialiseSystemMetadata(object: JsonObject, now: Date): void {
  const metadata = meta(object);
  metadata.uid = randomUUID();
  metadata.creationTimestamp = wireTime(now.getTime());
  metadata.generation = 1;
  delete metadata.resourceVersion;
  delete metadata.deletionTimestamp;
  delete metadata.deletionGracePeriodSeconds;
  delete metadata.selfLink;
}

const SYSTEM_METADATA = [
  "uid",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "generation",
];

/** On update the server keeps its own metadata fields whatever the client sent. */
export function preserveSystemMetadata(updated: JsonObject, old: JsonObject): void {
  const metadata = meta(updated);
  const oldMetadata = meta(old);
  for (const field of SYSTEM_METADATA) {
    const value: JsonValue | undefined = oldMetadata[field];
    if (value === undefined) delete metadata[field];
    else metadata[field] = value;
  }
  delete metadata.selfLink;
}
