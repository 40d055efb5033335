import type { Frozen } from "../../runtime/index.js";
import {
  IDENTIFIER_ANNOTATION,
  type InstallStrategy,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  type ManagedObject,
  REGISTRY_ANNOTATION,
  VERSION_ANNOTATION,
} from "../strategy/install-strategy.js";
import { isSubsetOf } from "./is-subset-of.js";
import type { InstalledObject } from "./managed-kinds.js";

/** Why an object is (re)applied: it is missing, from another strategy, or changed by hand. */
export type ApplyReason = "missing" | "outdated" | "drifted";

/**
 * The object as the operator applies it: the strategy's, stamped with the managed-by label and
 * the strategy's annotations. The reconciler stamps them itself, so that finding, repairing and
 * removing managed objects never depends on the renderer remembering to.
 */
export function stampedObject(object: ManagedObject, strategy: InstallStrategy): ManagedObject {
  return {
    ...object,
    metadata: {
      ...object.metadata,
      labels: { ...object.metadata.labels, [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
      annotations: {
        ...object.metadata.annotations,
        [VERSION_ANNOTATION]: strategy.version,
        [REGISTRY_ANNOTATION]: strategy.registry,
        [IDENTIFIER_ANNOTATION]: strategy.id,
      },
    },
  };
}

/**
 * Whether `live` needs `desired` applied, and why; undefined when it is as the strategy wants
 * it (no write). apiVersion and kind are not compared: list answers leave them out of items.
 */
export function applyReason(
  desired: ManagedObject,
  live: Frozen<InstalledObject> | undefined,
  strategyId: string,
): ApplyReason | undefined {
  if (!live) return "missing";
  if (live.metadata?.annotations?.[IDENTIFIER_ANNOTATION] !== strategyId) return "outdated";
  const { apiVersion: _apiVersion, kind: _kind, ...fields } = desired;
  return isSubsetOf(fields, live) ? undefined : "drifted";
}

/** An object the operator installed from a strategy (not merely labelled, as the bundle's own may be). */
export function isInstalledByOperator(object: Frozen<InstalledObject>): boolean {
  return (
    object.metadata?.labels?.[MANAGED_BY_LABEL] === MANAGED_BY_VALUE &&
    object.metadata?.annotations?.[IDENTIFIER_ANNOTATION] !== undefined
  );
}
