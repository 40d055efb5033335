/**
 * The component images: one per images/*.Dockerfile, named REGISTRY/COMPONENT:TAG (KubeVirt's
 * layout, which the operator bundle and the install strategy name). Built from the repository
 * root with the base images' stand-ins in place and pulling forbidden, with every timestamp set to
 * the last commit's time, so the same checkout builds the same image.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DEBIAN_BASE, ensureDebianBase, ensureNodeBase, NODE_BASE } from "./base-images.js";
import { parseStages } from "./dockerfile.js";
import { podman, runtimeArgs } from "./podman.js";

const run = promisify(execFile);

export interface ImageBuildOptions {
  readonly root: string;
  readonly registry: string;
  readonly tag: string;
  readonly push: boolean;
  /** Components to build; all when empty. */
  readonly only: readonly string[];
  readonly log: (line: string) => void;
}

/** The components with a Dockerfile, in name order. */
export async function components(root: string): Promise<string[]> {
  const names = await readdir(join(root, "images"));
  return names
    .filter((name) => name.endsWith(".Dockerfile"))
    .map((name) => name.slice(0, -".Dockerfile".length))
    .sort();
}

/** The base images a Dockerfile pulls (not its own stages, not scratch). */
export async function baseImagesOf(root: string, component: string): Promise<string[]> {
  const stages = parseStages(await readFile(join(root, "images", `${component}.Dockerfile`), "utf8"));
  const own = new Set(stages.flatMap((stage) => (stage.name ? [stage.name] : [])));
  return [...new Set(stages.map((stage) => stage.base))].filter(
    (base) => base !== "scratch" && !own.has(base),
  );
}

export function imageName(registry: string, component: string, tag: string): string {
  return `${registry.replace(/\/+$/, "")}/${component}:${tag}`;
}

/** A registry on this machine's loopback speaks plain HTTP (the dev cluster's, docker-registry's). */
export function isLoopbackRegistry(registry: string): boolean {
  const host = registry.split("/")[0] ?? "";
  return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/.test(host);
}

/**
 * The CA bundle this host's npm trusts, for the builds' `npm ci`: where egress goes through a
 * TLS-inspecting proxy, the registry's certificate chains to a CA only the host knows. It is
 * mounted into RUN steps with an npmrc naming it, never copied into an image.
 */
async function hostNpmCaMounts(context: string): Promise<string[]> {
  let cafile = process.env.NODE_EXTRA_CA_CERTS ?? "";
  if (!cafile) {
    try {
      cafile = (await run("npm", ["config", "get", "cafile"])).stdout.trim();
    } catch {
      return [];
    }
  }
  if (!cafile || cafile === "null" || cafile === "undefined") return [];
  const npmrc = join(context, "npmrc");
  await writeFile(npmrc, `cafile=${BUILD_CA_PATH}\n`);
  return ["--volume", `${cafile}:${BUILD_CA_PATH}:ro`, "--volume", `${npmrc}:/usr/local/etc/npmrc:ro`];
}

const BUILD_CA_PATH = "/run/kubevirt-ts-build/ca.crt";

export async function buildImages(options: ImageBuildOptions): Promise<string[]> {
  const { root } = options;
  const all = await components(root);
  const unknown = options.only.filter((name) => !all.includes(name));
  if (unknown.length > 0)
    throw new Error(`no images/${unknown[0]}.Dockerfile (there are: ${all.join(", ")})`);
  const chosen = options.only.length > 0 ? all.filter((name) => options.only.includes(name)) : all;
  const epoch = (await run("git", ["-C", root, "log", "-1", "--format=%ct"])).stdout.trim();
  const scratch = await mkdtemp(join(tmpdir(), "kubevirt-ts-images-"));
  try {
    return await buildEach(chosen, { ...options, epoch, mounts: await hostNpmCaMounts(scratch) });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function buildEach(
  chosen: readonly string[],
  options: ImageBuildOptions & { readonly epoch: string; readonly mounts: readonly string[] },
): Promise<string[]> {
  const { root, registry, tag, log, epoch } = options;
  const built: string[] = [];
  for (const component of chosen) {
    for (const base of await baseImagesOf(root, component)) await ensureBase(base, log);
    const name = imageName(registry, component, tag);
    log(`building ${name}`);
    await podman([
      "build",
      ...runtimeArgs(),
      "--pull=never",
      "--network=host",
      `--timestamp=${epoch}`,
      ...options.mounts,
      "-f",
      join(root, "images", `${component}.Dockerfile`),
      "-t",
      name,
      root,
    ]);
    if (options.push) {
      log(`pushing ${name}`);
      await podman(["push", `--tls-verify=${!isLoopbackRegistry(registry)}`, name]);
    }
    built.push(name);
  }
  return built;
}

async function ensureBase(base: string, log: (line: string) => void): Promise<void> {
  if (base === DEBIAN_BASE) return ensureDebianBase(log);
  if (base === NODE_BASE) return ensureNodeBase(log);
  throw new Error(
    `${base}: no local stand-in for this base image (images/build/base-images.ts has ${DEBIAN_BASE} and ${NODE_BASE})`,
  );
}
