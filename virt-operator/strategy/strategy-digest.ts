import { createHash } from "node:crypto";
import { IDENTIFIER_ANNOTATION, type ManagedObject } from "./install-strategy.js";

/**
 * The strategy's identifier: sha256 (hex) over the canonical JSON of the objects in apply order.
 * Canonical means object keys sorted at every level, so the digest depends on what is rendered,
 * never on the order a renderer happened to write fields in. The identifier annotation itself is
 * not part of it (it cannot contain its own digest).
 */
export function strategyDigest(objects: readonly ManagedObject[]): string {
  const withoutIdentifier = objects.map((object) => {
    const { [IDENTIFIER_ANNOTATION]: _identifier, ...annotations } = object.metadata.annotations;
    return { ...object, metadata: { ...object.metadata, annotations } };
  });
  return createHash("sha256").update(canonicalJson(withoutIdentifier)).digest("hex");
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node !== null && typeof node === "object" && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : node,
  );
}
