#!/usr/bin/env node
/**
 * `npm run images -- [--registry R] [--tag T] [--push] [--only NAME...]`: builds the component
 * images of images/*.Dockerfile with podman (base images this machine cannot pull get local
 * stand-ins, base-images.ts) and, with --push, pushes them. `npm run generate -- --registry R
 * --tag T --output-dir DIR` then renders the install manifests for them. This file only wires.
 */
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { findRepositoryRoot } from "../../api/crd/repository-root.js";
import { DEFAULT_REGISTRY, defaultTag } from "../../virt-operator/deploy/release-defaults.js";
import { buildImages } from "./component-images.js";

const CONTAINERS_CONF = "/etc/containers/containers.conf";

const root = findRepositoryRoot(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));
const options = new Command("images")
  .description("Build (and push) the kubevirt-ts component images with podman")
  .option("--registry <registry>", "registry and repository prefix of the images", DEFAULT_REGISTRY)
  .option("--tag <tag>", "tag of the images (default: v + package.json's version)")
  .option("--push", "push the images after building them", false)
  .option("--only <components...>", "build only these components (e.g. virt-api virt-launcher)")
  .parse()
  .opts<{ registry: string; tag?: string; push: boolean; only?: string[] }>();

try {
  await requireUlimitsSetting();
  const built = await buildImages({
    root,
    registry: options.registry,
    tag: options.tag ?? defaultTag(root),
    push: options.push,
    only: options.only ?? [],
    log: (line) => console.log(`images: ${line}`),
  });
  console.log(`images: ${options.push ? "built and pushed" : "built"} ${built.join(" ")}`);
} catch (error) {
  console.error(`images: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

/** podman's RUN steps fail on this kind of machine unless containers.conf drops the default ulimits. */
async function requireUlimitsSetting(): Promise<void> {
  let text = "";
  try {
    text = await readFile(CONTAINERS_CONF, "utf8");
  } catch {
    // Missing: the message below says what to write.
  }
  if (/^\s*default_ulimits\s*=\s*\[\s*\]/m.test(text)) return;
  throw new Error(
    `podman needs \`default_ulimits = []\` under [containers] in ${CONTAINERS_CONF} here: printf '[containers]\\ndefault_ulimits = []\\n' >> ${CONTAINERS_CONF}`,
  );
}
