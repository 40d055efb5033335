import { wireTime } from "../../../runtime/clock/wire-time.js";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { badRequest } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldSemanticsLookup } from "../resource-type.js";
import { type ApplyConflict, applyConflictError, findConflicts } from "./apply-conflicts.js";
import { mergeApplied } from "./apply-merge.js";
import { pruneUnapplied } from "./apply-prune.js";
import { FieldSet } from "./field-set.js";
import { fieldsStillLastApplied, KUBECTL_MANAGER, syncLastApplied } from "./last-applied.js";
import { setManagedFields } from "./managed-fields-entry.js";
import {
  entriesFromManagers,
  identityKey,
  type ManagerFields,
  type ManagerIdentity,
  storedManagers,
} from "./managers.js";
import {
  compareTracked,
  type FieldChanges,
  type IgnoredFields,
  trackedFieldSetOf,
  withObjectMetaSemantics,
  withoutManagedFields,
} from "./tracked-fields.js";

export interface ServerSideApplyOptions {
  manager: string;
  force: boolean;
  /** The group/version the request was made in (`apps/v1`, `v1`). */
  apiVersion: string;
  subresource?: string;
  now: Date;
  semantics: FieldSemanticsLookup;
  /** Fields this endpoint resets (e.g. `[["status"]]` on the main resource); nobody owns them here. */
  ignoredFields?: IgnoredFields;
}

/** Upstream names the owner of everything an object had before its first apply. */
export const BEFORE_FIRST_APPLY_MANAGER = "before-first-apply";

function rejectManagedFields(applied: JsonObject): void {
  const metadata = applied.metadata;
  const managedFields = isJsonObject(metadata) ? metadata.managedFields : undefined;
  if (managedFields !== undefined && managedFields !== null) {
    throw badRequest(`metadata.managedFields must be nil but was ${JSON.stringify(managedFields)}`);
  }
}

/**
 * The managers of the live object. An object that has none yet (written before anything was
 * tracked, or reset) gets one Update manager owning all it holds, so an apply cannot silently
 * overwrite it.
 */
function liveManagers(current: JsonObject, live: JsonObject, opts: ServerSideApplyOptions): ManagerFields[] {
  const stored = storedManagers(current);
  if (stored.length > 0) return stored;
  const fields = trackedFieldSetOf(live, opts.semantics, opts.ignoredFields ?? []);
  const time = wireTime(opts.now.getTime());
  return [
    { manager: BEFORE_FIRST_APPLY_MANAGER, operation: "Update", apiVersion: opts.apiVersion, time, fields },
  ];
}

/**
 * Conflicts that stop the apply: none when forced; for `kubectl`, those left after excusing
 * fields that client-side apply's annotation still describes (kube forces those).
 */
function blockingConflicts(
  conflicts: ApplyConflict[],
  live: JsonObject,
  opts: ServerSideApplyOptions,
): ApplyConflict[] {
  if (opts.force) return [];
  if (conflicts.length === 0 || opts.manager !== KUBECTL_MANAGER) return conflicts;
  const excused = fieldsStillLastApplied(live, opts.apiVersion, opts.semantics, opts.ignoredFields ?? []);
  return conflicts.filter((conflict) => !excused.has(conflict.path));
}

/** Other managers lose what the apply changed or removed; the applier owns exactly what it applied. */
function transferOwnership(
  managers: readonly ManagerFields[],
  applier: ManagerFields,
  changes: FieldChanges,
): ManagerFields[] {
  const applierKey = identityKey(applier);
  const others = managers
    .filter((manager) => identityKey(manager) !== applierKey)
    .map((manager) => ({
      ...manager,
      fields: manager.fields.difference(changes.changed).difference(changes.removed),
    }));
  return [...others, applier];
}

/**
 * Server-side apply of `applied` by `opts.manager` onto `current` (undefined: the object is
 * being created). Returns the new object with its managedFields; throws a 409 Conflict when
 * the apply would change fields other managers own and `force` is off.
 */
export function serverSideApply(
  current: JsonObject | undefined,
  applied: JsonObject,
  opts: ServerSideApplyOptions,
): JsonObject {
  rejectManagedFields(applied);
  const semantics = withObjectMetaSemantics(opts.semantics);
  const ignored = opts.ignoredFields ?? [];
  const live = current ? withoutManagedFields(current) : {};
  const managers = current ? liveManagers(current, live, opts) : [];
  const identity: ManagerIdentity = {
    manager: opts.manager,
    operation: "Apply",
    apiVersion: opts.apiVersion,
  };
  if (opts.subresource) identity.subresource = opts.subresource;
  const previous = managers.find((manager) => identityKey(manager) === identityKey(identity));
  const applier: ManagerFields = { ...identity, fields: trackedFieldSetOf(applied, semantics, ignored) };

  const stillOwned = managers
    .filter((manager) => manager !== previous)
    .reduce((owned, manager) => owned.union(manager.fields), applier.fields);
  const merged = pruneUnapplied(
    mergeApplied(live, applied, semantics),
    previous?.fields ?? FieldSet.EMPTY,
    stillOwned,
    semantics,
  );
  const changes = compareTracked(live, merged, semantics, ignored);
  const conflicts = blockingConflicts(findConflicts(managers, identity, changes.changed), live, opts);
  if (conflicts.length > 0) throw applyConflictError(conflicts);

  const time =
    previous?.time !== undefined && jsonEqual(live, merged) ? previous.time : wireTime(opts.now.getTime());
  applier.time = time;
  const result = setManagedFields(merged, entriesFromManagers(transferOwnership(managers, applier, changes)));
  return opts.manager === KUBECTL_MANAGER ? syncLastApplied(result, applied) : result;
}
