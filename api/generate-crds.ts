import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderAllCrds } from "./crd/render.js";
import { findRepositoryRoot } from "./crd/repository-root.js";

/**
 * `npm run generate`: writes one YAML file per kubevirt.io CRD into crds/ (or the directory
 * given as the first argument) and removes generated files that no longer correspond to a kind.
 */

function defaultOutputDir(): string {
  return join(findRepositoryRoot(dirname(fileURLToPath(import.meta.url))), "crds");
}

async function generate(outputDir: string): Promise<string[]> {
  await mkdir(outputDir, { recursive: true });
  const files = renderAllCrds();
  const wanted = new Set(files.map((file) => file.fileName));
  for (const existing of await readdir(outputDir)) {
    if (existing.endsWith(".yaml") && !wanted.has(existing)) await rm(join(outputDir, existing));
  }
  for (const file of files) await writeFile(join(outputDir, file.fileName), file.text);
  return files.map((file) => join(outputDir, file.fileName));
}

const outputDir = process.argv[2] === undefined ? defaultOutputDir() : resolve(process.argv[2]);
generate(outputDir).then(
  (written) => {
    for (const path of written) process.stdout.write(`wrote ${path}\n`);
  },
  (error: unknown) => {
    process.stderr.write(`generate-crds: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
