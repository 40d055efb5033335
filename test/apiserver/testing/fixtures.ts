import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The YAML fixtures live in the source tree (test/apiserver/testing/fixtures), not in dist/. */
export function fixturePath(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here, "..", "..", "..", "..", "test", "apiserver", "testing", "fixtures", name);
}
