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
// Files named *.serial.test.js disturb what others share (e.g. they restart libvirtd): they run
// after the rest, one at a time.
const parallel = files.filter((file) => !file.endsWith(".serial.test.js"));
const serial = files.filter((file) => file.endsWith(".serial.test.js"));
const runner = ["--enable-source-maps", "--test", "--test-timeout=600000"];
let status = 0;
if (parallel.length > 0) {
  const result = spawnSync(process.execPath, [...runner, "--test-concurrency=2", ...parallel], {
    cwd: root,
    stdio: "inherit",
  });
  status = result.status ?? 1;
}
if (serial.length > 0) {
  const result = spawnSync(process.execPath, [...runner, "--test-concurrency=1", ...serial], {
    cwd: root,
    stdio: "inherit",
  });
  if (status === 0) status = result.status ?? 1;
}
process.exit(status);
