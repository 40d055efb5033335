import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { findRepositoryRoot } from "../crd/repository-root.js";

/** Test helpers: the repository root and the YAML manifests under api/testdata/. */

export const REPOSITORY_ROOT = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));

/** A manifest from api/testdata/ as plain JSON data. */
export function loadTestManifest(fileName: string): Record<string, unknown> {
  const text = readFileSync(join(REPOSITORY_ROOT, "api", "testdata", fileName), "utf8");
  return parse(text) as Record<string, unknown>;
}
