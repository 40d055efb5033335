import { Command } from "commander";
import { addKubeconfigOption, addLogLevelOption, parsePort } from "../runtime/index.js";
import { DEFAULT_CONSOLE_PORT } from "./console-server/console-server.js";

/** What virt-handler's flags say: where things are (configuration is the KubeVirt CR's). */
export interface CommandLine {
  nodeName?: string;
  libvirtUri: string;
  kubeconfig?: string;
  namespace: string;
  stateDir?: string;
  imageStore: string;
  listenAddress: string;
  port: number;
  consolePort: number;
  heartbeatInterval: number;
  logLevel: string;
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  const program = new Command("virt-handler")
    .description("kubevirt-ts node agent: runs the VMIs of its node as libvirt domains")
    .option("--node-name <name>", "this node's name (default: $NODE_NAME, else the hostname)")
    .option("--libvirt-uri <uri>", "libvirt connection URI", "qemu:///system");
  addKubeconfigOption(program)
    .option("--namespace <ns>", "namespace of the KubeVirt CR", "kubevirt")
    // The image's environment may say where these are (the dev cluster's image map does), so the
    // operator's DaemonSet stays the same everywhere.
    .option(
      "--state-dir <dir>",
      "per-VM files (default: $VIRT_HANDLER_STATE_DIR, else /var/lib/kubevirt-ts/<node>)",
      process.env.VIRT_HANDLER_STATE_DIR,
    )
    .option(
      "--image-store <dir>",
      "local image store for containerDisks (default: $VIRT_HANDLER_IMAGE_STORE)",
      process.env.VIRT_HANDLER_IMAGE_STORE ?? "/var/lib/kubevirt-ts/images",
    )
    .option("--listen-address <ip>", "address of /healthz and /metrics", process.env.POD_IP ?? "0.0.0.0")
    .option("--port <n>", "port of /healthz and /metrics (0: any free one)", parsePort, 8443)
    .option(
      "--console-port <n>",
      "port of the console, VNC and pause server for virt-api (0: any free one)",
      parsePort,
      DEFAULT_CONSOLE_PORT,
    )
    .option("--heartbeat-interval <seconds>", "node heartbeat interval", Number, 30);
  addLogLevelOption(program);
  program.parse(argv, { from: "node" });
  return program.opts<CommandLine>();
}
