import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Where the project's release images are pushed. */
export const DEFAULT_REGISTRY = "ghcr.io/kubevirt-ts";

/** The release tag of a checkout: `v` + package.json's version. */
export function defaultTag(repositoryRoot: string): string {
  const path = join(repositoryRoot, "package.json");
  let manifest: { version?: unknown };
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as { version?: unknown };
  } catch (error) {
    throw new Error(`cannot read the version from ${path}`, { cause: error });
  }
  if (typeof manifest.version !== "string") throw new Error(`${path} has no version`);
  return `v${manifest.version}`;
}
