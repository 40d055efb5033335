import { ApiError, type StatusCause } from "../api-error.js";
import type { FieldSet } from "./field-set.js";
import { identityKey, type ManagerFields, type ManagerIdentity, printManager } from "./managers.js";
import { type FieldPath, pathToString } from "./path-element.js";

/** A field the applier would change that another manager owns. */
export interface ApplyConflict {
  manager: ManagerIdentity;
  path: FieldPath;
}

/** Conflicts of an apply that changes `changed`: every other manager's share of it. */
export function findConflicts(
  managers: readonly ManagerFields[],
  applier: ManagerIdentity,
  changed: FieldSet,
): ApplyConflict[] {
  const applierKey = identityKey(applier);
  return managers
    .filter((manager) => identityKey(manager) !== applierKey)
    .sort((a, b) => (identityKey(a) < identityKey(b) ? -1 : identityKey(a) > identityKey(b) ? 1 : 0))
    .flatMap((manager) =>
      manager.fields
        .intersection(changed)
        .paths()
        .map((path) => ({ manager, path })),
    );
}

/**
 * The message kube-apiserver writes: one conflict on one line, several grouped by manager:
 * `Apply failed with 2 conflicts: conflicts with "a" using v1:\n- .x\n- .y`.
 */
function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only) {
    return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${pathToString(only.path)}`;
  }
  const byManager = new Map<string, ApplyConflict[]>();
  for (const conflict of conflicts) {
    const key = identityKey(conflict.manager);
    byManager.set(key, [...(byManager.get(key) ?? []), conflict]);
  }
  const lines = [...byManager.values()].flatMap((group) => [
    `conflicts with ${printManager(group[0]?.manager ?? { manager: "", operation: "Apply", apiVersion: "" })}:`,
    ...group.map((conflict) => `- ${pathToString(conflict.path)}`),
  ]);
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
}

/**
 * The 409 an apply answers with. Like upstream's NewApplyConflict, details carry only the
 * causes, one per field, which kubectl prints.
 */
export function applyConflictError(conflicts: readonly ApplyConflict[]): ApiError {
  const causes: StatusCause[] = conflicts.map((conflict) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(conflict.manager)}`,
    field: pathToString(conflict.path),
  }));
  return new ApiError(409, "Conflict", conflictMessage(conflicts), { causes });
}
