import { wireTime } from "../../../runtime/clock/wire-time.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { FieldSet } from "./field-set.js";
import { decodeManagedFields, type ManagedFieldsEntry } from "./managed-fields-entry.js";
import {
  entriesFromManagers,
  identityKey,
  type ManagerFields,
  type ManagerIdentity,
  managersFromEntries,
  storedManagers,
} from "./managers.js";
import {
  compareTracked,
  type FieldChanges,
  type IgnoredFields,
  withoutManagedFields,
} from "./tracked-fields.js";

export {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagedFieldsOperation,
  setManagedFields,
} from "./managed-fields-entry.js";
export type { IgnoredFields } from "./tracked-fields.js";

export interface RecordUpdateOptions {
  manager: string;
  apiVersion: string;
  subresource?: string;
  now: Date;
  semantics: FieldSemanticsLookup;
  /** Fields this endpoint resets (e.g. `[["status"]]` on the main resource); nobody owns them here. */
  ignoredFields?: IgnoredFields;
}

function providedManagedFields(object: JsonObject): JsonValue | undefined {
  return isJsonObject(object.metadata) ? object.metadata.managedFields : undefined;
}

/** `managedFields: [{}]` is the documented way to strip all ownership; `[]` deliberately is not. */
function isResetRequest(provided: JsonValue | undefined): boolean {
  return (
    Array.isArray(provided) &&
    provided.length === 1 &&
    isJsonObject(provided[0]) &&
    Object.keys(provided[0]).length === 0
  );
}

/**
 * Whose ownership the write starts from. Clients may rewrite managedFields through the main
 * resource (kubectl does so to migrate client-side apply to server-side apply); a missing,
 * empty or undecodable list means "keep what was stored", so clients unaware of the field
 * never wipe it. Subresources always keep what was stored.
 */
function startingManagers(
  before: JsonObject | undefined,
  after: JsonObject,
  subresource: string | undefined,
): ManagerFields[] {
  const provided = providedManagedFields(after);
  if (!subresource && Array.isArray(provided)) {
    if (isResetRequest(provided)) return [];
    try {
      const managers = managersFromEntries(decodeManagedFields(after));
      if (managers.length > 0) return managers;
    } catch {
      // Fall back to the stored list, as upstream does for undecodable input.
    }
  }
  return storedManagers(before);
}

/**
 * The writer becomes the owner of what it changed: changed and removed fields leave every other
 * manager, changed fields join the writer's entry. The writer's time moves only when it took
 * something, so no-op writes leave managedFields untouched.
 */
function takeOwnership(
  managers: readonly ManagerFields[],
  writer: ManagerIdentity,
  changes: FieldChanges,
  now: Date,
): ManagerFields[] {
  const writerKey = identityKey(writer);
  const previous = managers.find((manager) => identityKey(manager) === writerKey);
  const others = managers
    .filter((manager) => identityKey(manager) !== writerKey)
    .map((manager) => ({
      ...manager,
      fields: manager.fields.difference(changes.changed).difference(changes.removed),
    }));
  const written: ManagerFields = {
    ...writer,
    fields: (previous?.fields ?? FieldSet.EMPTY).difference(changes.removed).union(changes.changed),
  };
  const time = changes.changed.isEmpty() ? previous?.time : wireTime(now.getTime());
  if (time !== undefined) written.time = time;
  return [...others, written];
}

/**
 * The managedFields after a create, update or non-apply patch by `opts.manager`: it owns what
 * it changed (everything it set, on create); other managers lose those fields; managers left
 * with nothing disappear. The caller stores the result with `setManagedFields(after, ...)`.
 */
export function recordUpdate(
  before: JsonObject | undefined,
  after: JsonObject,
  opts: RecordUpdateOptions,
): ManagedFieldsEntry[] {
  const managers = startingManagers(before, after, opts.subresource);
  const changes = compareTracked(
    withoutManagedFields(before ?? {}),
    withoutManagedFields(after),
    opts.semantics,
    opts.ignoredFields ?? [],
  );
  const writer: ManagerIdentity = { manager: opts.manager, operation: "Update", apiVersion: opts.apiVersion };
  if (opts.subresource) writer.subresource = opts.subresource;
  return entriesFromManagers(takeOwnership(managers, writer, changes, opts.now));
}
