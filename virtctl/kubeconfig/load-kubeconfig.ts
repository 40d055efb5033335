/**
 * Reads the kubeconfig as kubectl would and settles the two things every command needs from it:
 * the context (`--context`, else the current one) and the namespace (`-n`, else the context's,
 * else `default`). Loading, merging and the service account use @kubernetes/client-node.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { KubeConfig } from "@kubernetes/client-node";
import { CliError, oneLine } from "../errors/cli-error.js";
import { chooseKubeConfigSource } from "./kubeconfig-source.js";

export interface ConnectionFlags {
  readonly kubeconfig?: string | undefined;
  readonly context?: string | undefined;
  readonly namespace?: string | undefined;
}

export interface LoadedKubeConfig {
  readonly config: KubeConfig;
  readonly namespace: string;
  /** Where it came from, for messages: `kubeconfig /path (context x)` or `in-cluster service account`. */
  readonly origin: string;
}

export function loadKubeConfig(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LoadedKubeConfig {
  const source = chooseKubeConfigSource({
    flag: flags.kubeconfig,
    context: flags.context,
    env,
    home: env.HOME || homedir(),
    exists: existsSync,
  });
  const config = new KubeConfig();
  let origin: string;
  switch (source.kind) {
    case "none":
      throw new CliError(
        `no kubeconfig found (looked for ${source.tried.join(", ") || "~/.kube/config"}): pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config`,
      );
    case "in-cluster":
      try {
        config.loadFromCluster();
      } catch (error) {
        throw new CliError(`cannot read the pod's service account: ${oneLine(error)}`, { cause: error });
      }
      origin = "in-cluster service account";
      break;
    case "files":
      readFiles(config, source.paths);
      origin = `kubeconfig ${source.paths.join(", ")}`;
      break;
  }
  if (flags.context !== undefined) {
    if (!config.getContextObject(flags.context)) {
      throw new CliError(`context "${flags.context}" not found in ${origin}`);
    }
    config.setCurrentContext(flags.context);
  }
  const context = config.getContextObject(config.getCurrentContext());
  if (!context || !config.getCurrentCluster()) {
    throw new CliError(`${origin} has no current context: pass --context or run kubectl config use-context`);
  }
  return {
    config,
    namespace: flags.namespace || context.namespace?.trim() || "default",
    origin: `${origin} (context ${context.name})`,
  };
}

/**
 * Merges the files as kubectl does: the first file that sets a name (cluster, user, context) or
 * the current context wins. client-node's own merge lets later files win and throws on duplicates.
 */
function readFiles(config: KubeConfig, paths: readonly string[]): void {
  for (const path of paths) {
    const file = new KubeConfig();
    try {
      file.loadFromFile(path);
    } catch (error) {
      throw new CliError(`cannot read kubeconfig ${path}: ${oneLine(error)}`, { cause: error });
    }
    if (!config.currentContext && file.currentContext) config.currentContext = file.currentContext;
    for (const cluster of file.clusters) if (!config.getCluster(cluster.name)) config.addCluster(cluster);
    for (const user of file.users) if (!config.getUser(user.name)) config.addUser(user);
    for (const context of file.contexts) {
      if (!config.getContextObject(context.name)) config.addContext(context);
    }
  }
}
