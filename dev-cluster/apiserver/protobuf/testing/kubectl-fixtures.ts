import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "../../json.js";

/**
 * The bodies kubectl 1.32 sent (testdata/<case>.pb, recorded by testdata/capture/capture-fixtures.sh) and the
 * JSON the same command prints with --dry-run=client -o json (testdata/<case>.json; absent for kinds the
 * decoder does not cover). Tests run from a build directory, so the source tree is found by walking up.
 */
export interface Fixture {
  name: string;
  body: Uint8Array;
  expected: JsonObject | undefined;
}

function testdataDirectory(): string {
  const relative = join("dev-cluster", "apiserver", "protobuf", "testing", "testdata");
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no ${relative} above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
}

export function loadFixtures(): Fixture[] {
  const directory = testdataDirectory();
  return readdirSync(directory)
    .filter((file) => file.endsWith(".pb"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".pb".length);
      const jsonFile = join(directory, `${name}.json`);
      const expected = existsSync(jsonFile)
        ? (JSON.parse(readFileSync(jsonFile, "utf8")) as JsonObject)
        : undefined;
      return { name, body: new Uint8Array(readFileSync(join(directory, file))), expected };
    });
}
