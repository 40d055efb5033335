import type { InstallStrategy, ManagedObject } from "../strategy/install-strategy.js";
import { type ManagedKind, ManagedKindTable } from "./managed-kinds.js";
import { stampedObject } from "./object-drift.js";

/** One object of the strategy, ready to apply: its kind, the stamped object, its identity. */
export interface StrategyEntry {
  kind: ManagedKind;
  desired: ManagedObject;
  /** `Kind:namespace/name`, unique in the strategy. */
  identity: string;
}

/** A strategy the operator cannot apply: retrying does not help until the CR or the operator changes. */
export class InvalidStrategyError extends Error {
  override readonly name = "InvalidStrategyError";
}

/**
 * The strategy's objects, in its order, each of a managed kind, stamped, and unique. Throws an
 * InvalidStrategyError naming the first object that breaks a rule.
 */
export function strategyEntries(
  strategy: InstallStrategy,
  kinds: ManagedKindTable = new ManagedKindTable(),
): StrategyEntry[] {
  const seen = new Set<string>();
  return strategy.objects.map((object) => {
    const kind = kinds.of(object);
    if (!kind)
      throw new InvalidStrategyError(
        `the strategy renders ${object.kind} ${object.metadata.name} (${object.apiVersion}), a kind virt-operator does not manage`,
      );
    if (kind.resource.namespaced && !object.metadata.namespace)
      throw new InvalidStrategyError(
        `the strategy renders ${object.kind} ${object.metadata.name} without a namespace`,
      );
    const identity = ManagedKindTable.identity(kind, object);
    if (seen.has(identity)) throw new InvalidStrategyError(`the strategy renders ${identity} twice`);
    seen.add(identity);
    return { kind, desired: stampedObject(object, strategy), identity };
  });
}

export function isCrd(entry: { kind: ManagedKind }): boolean {
  return entry.kind.resource.kind === "CustomResourceDefinition";
}

export function describeEntry(entry: StrategyEntry): string {
  const { name, namespace } = entry.desired.metadata;
  return `${entry.desired.kind} ${entry.kind.resource.namespaced && namespace ? `${namespace}/${name}` : name}`;
}
