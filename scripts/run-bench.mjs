#!/usr/bin/env node
// `npm run bench -- NAME` runs bench/NAME.ts (compiled to dist/bench/NAME.js); each benchmark prints
// its table and writes bench/results/NAME.json itself.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [name, ...rest] = process.argv.slice(2);
if (!name) {
  console.error("usage: npm run bench -- NAME   (runs bench/NAME.ts)");
  process.exit(2);
}
const script = join(root, "dist", "bench", `${name}.js`);
if (!existsSync(script)) {
  console.error(`no benchmark named ${name}: bench/${name}.ts does not exist`);
  process.exit(2);
}
const result = spawnSync(process.execPath, ["--enable-source-maps", "--expose-gc", script, ...rest], {
  cwd: root,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
