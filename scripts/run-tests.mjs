#!/usr/bin/env node
// Runs every compiled `*.test.js` under dist/ with node's test runner. Arguments narrow the run to
// test files whose path contains one of them (e.g. `npm test -- apiserver`).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : findTests(path);
    return entry.name.endsWith(".test.js") ? [path] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests(dist)
  .filter((file) => filters.length === 0 || filters.some((f) => relative(dist, file).includes(f)))
  .sort();
if (files.length === 0) {
  console.error(`no test files matched ${filters.join(", ") || "dist/**/*.test.js"}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--enable-source-maps", "--test", "--test-timeout=600000", "--test-concurrency=2", ...files],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
