import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";

// The rule in docs/ARCHITECTURE.md (Habits): test support lives in testing/ folders next to what it
// tests, and production code never imports it. It reads the source tree: compiled output drops type-only
// imports.
const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
const skipped = new Set(["node_modules", "dist", ".git", ".local"]);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [relative(root, path)] : [];
  });
}

const isTest = (file: string) => file.endsWith(".test.ts");
const inTesting = (file: string) => /(^|\/)testing\//.test(file);
/** test/ is the end-to-end tree; bench/ the benchmarks: both may use test support. */
const isTestTree = (file: string) => file.startsWith("test/") || file.startsWith("bench/");
const isProduction = (file: string) => !isTest(file) && !inTesting(file) && !isTestTree(file);
/** Module barrels and entry points are public even when only tests import them. */
const isEntryPoint = (file: string) => /(^|\/)(index|main)\.ts$/.test(file);
/**
 * Inside test/: shared servers, the guest builders (programs: the tiny test guest, the Debian cloud
 * guest), the OCI image builder and pusher (npm start, tests and benchmarks share it), and programs
 * tests spawn.
 */
const testTreeHomes = [
  "test/harness/",
  "test/guest/",
  "test/cloud-guest/",
  "test/oci-image/",
  "test/programs/",
];

const files = sourceFiles(root);
const known = new Set(files);
const importers = new Map<string, string[]>(files.map((file) => [file, []]));
const specifier = /\bfrom\s*["'](\.\.?\/[^"']+)["']|\bimport\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g;
for (const file of files) {
  for (const match of readFileSync(join(root, file), "utf8").matchAll(specifier)) {
    const target = normalize(join(dirname(file), match[1] ?? match[2] ?? "")).replace(/\.js$/, ".ts");
    if (known.has(target)) importers.get(target)?.push(file);
  }
}

test("production code imports no test support", () => {
  const violations = [...importers].flatMap(([file, by]) =>
    isProduction(file) ? [] : by.filter(isProduction).map((importer) => `${importer} imports ${file}`),
  );
  assert.deepEqual(violations, []);
});

test("code that only tests use lives in a testing/ folder", () => {
  const misplaced = [...importers].flatMap(([file, by]) => {
    if (!isProduction(file) || isEntryPoint(file) || by.length === 0) return [];
    return by.some(isProduction) ? [] : [`${file} (used only by ${by.join(", ")})`];
  });
  assert.deepEqual(misplaced, []);
});

test("helpers of the end-to-end tree live in its testing/ folders", () => {
  const misplaced = files.filter(
    (file) =>
      file.startsWith("test/") &&
      !isTest(file) &&
      !inTesting(file) &&
      !testTreeHomes.some((home) => file.startsWith(home)),
  );
  assert.deepEqual(misplaced, []);
});
