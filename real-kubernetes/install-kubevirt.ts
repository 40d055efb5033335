/**
 * kubevirt-ts installed on the real cluster as a user installs it anywhere: the component images
 * built from images/ and pushed to the node's registry, deploy/ rendered for them, then KubeVirt's
 * two `kubectl apply` commands and `kubectl wait kv --for condition=Available`.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildImages } from "../images/build/component-images.js";
import { podman } from "../images/build/podman.js";

const run = promisify(execFile);

/** Image references name the registry as pods see it (localhost:5000, mirrored by containerd). */
export const IMAGE_PREFIX = "localhost:5000/kubevirt-ts";

export interface InstallOptions {
  readonly root: string;
  readonly kubeconfig: string;
  /** host:port the registry listens on, for pushing. */
  readonly registryAddress: string;
  readonly tag: string;
  readonly deployDir: string;
  readonly useEmulation: boolean;
  readonly log: (line: string) => void;
}

/** Builds every component image (cached by podman) and pushes it to the node's registry. */
export async function buildAndPushImages(options: InstallOptions): Promise<string[]> {
  const built = await buildImages({
    root: options.root,
    registry: IMAGE_PREFIX,
    tag: options.tag,
    push: false,
    only: [],
    log: options.log,
  });
  for (const name of built) {
    const destination = `${options.registryAddress}/${name.slice(name.indexOf("/") + 1)}`;
    options.log(`pushing ${name} to ${options.registryAddress}`);
    await podman(["push", "--tls-verify=false", name, `docker://${destination}`], { quiet: true });
  }
  return built;
}

export async function kubectl(kubeconfig: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run("kubectl", ["--kubeconfig", kubeconfig, ...args], {
      maxBuffer: 32 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const stderr = ((error as { stderr?: string }).stderr ?? "").trim();
    throw new Error(`kubectl ${args.join(" ")} failed: ${stderr || String(error)}`, { cause: error });
  }
}

export async function installKubevirt(options: InstallOptions): Promise<void> {
  const node = process.execPath;
  await run(node, [
    join(options.root, "dist", "virt-operator", "deploy", "generate-deploy.js"),
    ...["--registry", IMAGE_PREFIX, "--tag", options.tag, "--output-dir", options.deployDir],
  ]);
  const k = (args: readonly string[]) => kubectl(options.kubeconfig, args);
  await k(["apply", "-f", join(options.deployDir, "kubevirt-operator.yaml")]);
  await k(["wait", "--for", "condition=established", "crd/kubevirts.kubevirt.io", "--timeout=60s"]);
  await k(["apply", "-f", join(options.deployDir, "kubevirt-cr.yaml")]);
  if (options.useEmulation) {
    // KubeVirt's documented switch for nodes whose KVM cannot run guests (as on these machines).
    const patch = { spec: { configuration: { developerConfiguration: { useEmulation: true } } } };
    await k(["-n", "kubevirt", "patch", "kubevirt", "kubevirt", "--type=merge", "-p", JSON.stringify(patch)]);
  }
  options.log(
    `waiting for virt-operator to install kubevirt-ts${options.useEmulation ? " (VMs under emulation)" : ""}`,
  );
  await k(["-n", "kubevirt", "wait", "kv", "kubevirt", "--for", "condition=Available", "--timeout=600s"]);
}
