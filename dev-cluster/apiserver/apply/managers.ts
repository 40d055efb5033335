import type { JsonObject } from "../json.js";
import { type FieldSet, fieldSetFromFieldsV1, fieldSetToFieldsV1 } from "./field-set.js";
import {
  decodeManagedFields,
  type ManagedFieldsEntry,
  type ManagedFieldsOperation,
} from "./managed-fields-entry.js";

/** A managedFields entry with its fields parsed: what the ownership rules work on. */
export interface ManagerFields {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  subresource?: string;
  time?: string;
  fields: FieldSet;
}

export type ManagerIdentity = Pick<ManagerFields, "manager" | "operation" | "apiVersion" | "subresource">;

/**
 * Which entries are the same manager, as upstream's BuildManagerIdentifier: name, operation
 * and subresource; Update entries are also told apart by apiVersion, Apply entries are not
 * (an applier switching versions keeps one entry).
 */
export function identityKey(who: ManagerIdentity): string {
  return JSON.stringify({
    manager: who.manager,
    operation: who.operation,
    apiVersion: who.operation === "Update" ? who.apiVersion : "",
    subresource: who.subresource ?? "",
  });
}

/** How conflicts name a manager: `"kubectl"`, or `"mgr" with subresource "status" using v1` for updaters. */
export function printManager(who: ManagerIdentity): string {
  let printed = JSON.stringify(who.manager);
  if (who.subresource) printed += ` with subresource ${JSON.stringify(who.subresource)}`;
  return who.operation === "Update" ? `${printed} using ${who.apiVersion}` : printed;
}

export function managersFromEntries(entries: readonly ManagedFieldsEntry[]): ManagerFields[] {
  return entries.map((entry) => {
    const manager: ManagerFields = {
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      fields: fieldSetFromFieldsV1(entry.fieldsV1),
    };
    if (entry.subresource) manager.subresource = entry.subresource;
    if (entry.time !== undefined) manager.time = entry.time;
    return manager;
  });
}

/** Back to entries; managers left owning nothing are dropped, as upstream does. */
export function entriesFromManagers(managers: readonly ManagerFields[]): ManagedFieldsEntry[] {
  return managers
    .filter((manager) => !manager.fields.isEmpty())
    .map((manager) => {
      const entry: ManagedFieldsEntry = {
        manager: manager.manager,
        operation: manager.operation,
        apiVersion: manager.apiVersion,
        fieldsType: "FieldsV1",
        fieldsV1: fieldSetToFieldsV1(manager.fields),
      };
      if (manager.time !== undefined) entry.time = manager.time;
      if (manager.subresource) entry.subresource = manager.subresource;
      return entry;
    });
}

/**
 * The managers recorded on a stored object. Stored managedFields were written by this server,
 * but an object may carry garbage written by a client through an update; like upstream, such
 * an object is treated as having no managers rather than failing every later write.
 */
export function storedManagers(object: JsonObject | undefined): ManagerFields[] {
  if (!object) return [];
  try {
    return managersFromEntries(decodeManagedFields(object));
  } catch {
    return [];
  }
}
