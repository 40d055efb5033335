#!/usr/bin/env node
// Makes `npm start`, `npm test` and `npm run bench` work on a fresh clone: installs the npm
// dependencies when they are missing or older than the lock file, then compiles the TypeScript.
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });

const lock = join(root, "package-lock.json");
const installed = join(root, "node_modules", ".package-lock.json");
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}
run(process.execPath, [
  join(root, "node_modules", "typescript", "bin", "tsc"),
  "-p",
  join(root, "tsconfig.json"),
]);
