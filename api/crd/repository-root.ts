import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The kubevirt-ts checkout a compiled file belongs to: the nearest directory above `start` whose
 * package.json is named kubevirt-ts. Works from dist/ and from any other build directory.
 */
export function findRepositoryRoot(start: string): string {
  let directory = start;
  for (;;) {
    if (isRepositoryRoot(directory)) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no kubevirt-ts package.json above ${start}`);
    directory = parent;
  }
}

function isRepositoryRoot(directory: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name?: unknown };
    return manifest.name === "kubevirt-ts";
  } catch {
    return false;
  }
}
