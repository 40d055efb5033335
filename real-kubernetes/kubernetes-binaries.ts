/**
 * The Kubernetes 1.20 binaries (kube-apiserver, kube-controller-manager, kube-scheduler, kubelet,
 * kube-proxy): built from Debian's source package, which ships no server binaries. They come
 * xz-compressed from $REAL_K8S_HOME/bin (default: ../shared/real-k8s beside the repository),
 * else from this project's own build of Debian's source (build-kubernetes-from-debian.sh, about
 * 13 minutes on 2 cores), and are unpacked once into the data directory.
 */
import { execFile, spawn } from "node:child_process";
import { access, chmod, constants, mkdir, open, rename } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const KUBERNETES_BINARIES = [
  "kube-apiserver",
  "kube-controller-manager",
  "kube-scheduler",
  "kubelet",
  "kube-proxy",
] as const;
export type KubernetesBinary = (typeof KUBERNETES_BINARIES)[number];

export class KubernetesBinariesError extends Error {
  override readonly name = "KubernetesBinariesError";
}

/** Where compressed binaries are looked for, first match wins. */
export function binarySources(root: string, env = process.env): string[] {
  const sources = [join(root, ".local", "kubernetes-build", "bin")];
  if (env.REAL_K8S_HOME) sources.unshift(join(resolve(env.REAL_K8S_HOME), "bin"));
  else sources.unshift(resolve(root, "..", "shared", "real-k8s", "bin"));
  return sources;
}

/**
 * Unpacks each binary into `binDir` unless it is there already; returns their paths. Without a
 * source holding all five, builds them from Debian's source when `buildIfMissing`, else says how.
 */
export async function ensureKubernetesBinaries(options: {
  root: string;
  binDir: string;
  buildIfMissing: boolean;
  log: (line: string) => void;
}): Promise<Record<KubernetesBinary, string>> {
  const paths = Object.fromEntries(
    KUBERNETES_BINARIES.map((name) => [name, join(options.binDir, name)]),
  ) as Record<KubernetesBinary, string>;
  if (await allAccessible(Object.values(paths), constants.X_OK)) return paths;
  let source = await findSource(binarySources(options.root));
  if (source === undefined) {
    const script = join(options.root, "real-kubernetes", "build-kubernetes-from-debian.sh");
    if (!options.buildIfMissing) {
      throw new KubernetesBinariesError(
        `no Kubernetes 1.20 binaries in ${binarySources(options.root).join(" or ")}: set REAL_K8S_HOME, or build them from Debian's source with ${script} (about 13 minutes)`,
      );
    }
    options.log("building Kubernetes 1.20 from Debian's source package (about 13 minutes, once)");
    await buildFromDebianSource(script, join(options.root, ".local", "kubernetes-build"));
    source = await findSource(binarySources(options.root));
    if (source === undefined) throw new KubernetesBinariesError(`${script} finished without the binaries`);
  }
  await mkdir(options.binDir, { recursive: true });
  for (const name of KUBERNETES_BINARIES) {
    const partial = `${paths[name]}.partial`;
    await unxz(join(source, `${name}.xz`), partial);
    await chmod(partial, 0o755);
    await rename(partial, paths[name]);
  }
  options.log(`unpacked the Kubernetes binaries from ${source}`);
  return paths;
}

/** Whether every path is accessible with `mode` (constants.X_OK, constants.R_OK). */
async function allAccessible(paths: readonly string[], mode: number): Promise<boolean> {
  for (const path of paths) {
    try {
      await access(path, mode);
    } catch {
      return false;
    }
  }
  return true;
}

async function findSource(candidates: readonly string[]): Promise<string | undefined> {
  for (const candidate of candidates) {
    const files = KUBERNETES_BINARIES.map((name) => join(candidate, `${name}.xz`));
    if (await allAccessible(files, constants.R_OK)) return candidate;
  }
  return undefined;
}

/** `xz -dc source > target` (Node has no xz decoder). */
async function unxz(source: string, target: string): Promise<void> {
  const output = await open(target, "w", 0o755);
  try {
    await new Promise<void>((resolveRun, reject) => {
      const child = spawn("xz", ["-dc", source], { stdio: ["ignore", output.fd, "pipe"] });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      child.once("error", (error) =>
        reject(new KubernetesBinariesError(`cannot run xz (apt-get install -y xz-utils)`, { cause: error })),
      );
      child.once("close", (code) =>
        code === 0
          ? resolveRun()
          : reject(new KubernetesBinariesError(`xz -dc ${source} failed (exit ${code}): ${stderr.trim()}`)),
      );
    });
  } finally {
    await output.close();
  }
}

async function buildFromDebianSource(script: string, outDir: string): Promise<void> {
  try {
    await run("bash", [script, outDir], { maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new KubernetesBinariesError(`${script} failed; its log is in ${outDir}/build.log`, {
      cause: error,
    });
  }
}
