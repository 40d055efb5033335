import { hostname } from "node:os";
import { addKubeconfigOption, addLogLevelOption, componentCommand } from "../../runtime/index.js";

/** What the provisioner's flags say. */
export interface CommandLine {
  baseDir: string;
  nodeName: string;
  kubeconfig?: string;
  logLevel: string;
}

export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CommandLine {
  const program = componentCommand(
    "local-path-provisioner",
    "the dev cluster's local-path provisioner: a directory on the node for each claim",
  )
    .requiredOption(
      "--base-dir <dir>",
      "absolute directory (the pod's hostPath, mounted at the same path) whose pvc-* children are the volumes",
    )
    .option("--node-name <name>", "this node's name (default: $NODE_NAME, else the hostname)");
  addKubeconfigOption(program);
  addLogLevelOption(program);
  program.parse([...argv], { from: "node" });
  const options = program.opts<{
    baseDir: string;
    nodeName?: string;
    kubeconfig?: string;
    logLevel: string;
  }>();
  return {
    baseDir: options.baseDir,
    nodeName: options.nodeName ?? env.NODE_NAME ?? hostname().toLowerCase(),
    ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
    logLevel: options.logLevel,
  };
}
