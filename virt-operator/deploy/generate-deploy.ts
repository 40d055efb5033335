import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { renderDeployFiles } from "./deploy-files.js";
import { DEFAULT_REGISTRY, defaultTag } from "./release-defaults.js";

/**
 * `npm run generate` (after the CRDs): writes deploy/kubevirt-operator.yaml and
 * deploy/kubevirt-cr.yaml for a registry and tag.
 *
 *   node dist/virt-operator/deploy/generate-deploy.js [--registry REG] [--tag TAG] [--output-dir DIR]
 */

const root = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
const options = new Command("generate-deploy")
  .description("writes the operator bundle and the KubeVirt CR into deploy/")
  .option("--registry <registry>", "registry and repository prefix of the images", DEFAULT_REGISTRY)
  .option("--tag <tag>", "tag of the images (default: v + package.json's version)")
  .option("--output-dir <dir>", "where to write the files", join(root, "deploy"))
  .parse(process.argv)
  .opts<{ registry: string; tag?: string; outputDir: string }>();

async function generate(): Promise<string[]> {
  const outputDir = resolve(options.outputDir);
  await mkdir(outputDir, { recursive: true });
  const files = renderDeployFiles({ registry: options.registry, tag: options.tag ?? defaultTag(root) });
  for (const file of files) await writeFile(join(outputDir, file.fileName), file.text);
  return files.map((file) => join(outputDir, file.fileName));
}

generate().then(
  (written) => {
    for (const path of written) process.stdout.write(`wrote ${path}\n`);
  },
  (error: unknown) => {
    process.stderr.write(`generate-deploy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
