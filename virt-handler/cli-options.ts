import { join } from "node:path";
import { InvalidArgumentError } from "commander";
import {
  addKubeconfigOption,
  addLogLevelOption,
  componentCommand,
  DEFAULT_HEALTH_PORT,
  DEFAULT_METRICS_PORT,
  parsePort,
} from "../runtime/index.js";
import { DEFAULT_CONSOLE_PORT } from "./console-server/console-server.js";
import { DEFAULT_KUBELET_PODS_DIR } from "./vmi/launcher-pod-volumes.js";

/**
 * Where a node's containerd keeps its registry mirrors (`config_path`, as kind and most node images
 * set it): a containerDisk then resolves as the node's own image pulls do. The DaemonSet mounts it
 * read-only at the same path; a node without one has no mirrors.
 */
export const NODE_CONTAINERD_HOSTS_DIR = "/etc/containerd/certs.d";

/** What virt-handler's flags say: where things are (configuration is the KubeVirt CR's). */
export interface CommandLine {
  nodeName?: string;
  libvirtUri: string;
  kubeconfig?: string;
  namespace: string;
  stateDir?: string;
  imageStore: string;
  /** The node's cache of pulled containerDisk images, and its size budget in bytes. */
  imageCache: string;
  imageCacheSize: number;
  /** containerd-style registry host configuration (hosts.toml per registry) and a registries.conf. */
  registryHosts: string;
  registriesConf?: string;
  /** Where this process finds the kubelet's pods directory (the flag, under $KUBEVIRT_TS_ROOT if set). */
  kubeletPodsDir: string;
  /** Of the health, metrics and console servers. */
  address: string;
  healthPort: number;
  metricsPort: number;
  consolePort: number;
  heartbeatInterval: number;
  logLevel: string;
}

export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CommandLine {
  const program = componentCommand(
    "virt-handler",
    "kubevirt-ts node agent: runs the VMIs of its node as libvirt domains",
  )
    .option("--node-name <name>", "this node's name (default: $NODE_NAME, else the hostname)")
    .option("--libvirt-uri <uri>", "libvirt connection URI", "qemu:///system");
  addKubeconfigOption(program)
    .option("--namespace <ns>", "namespace of the KubeVirt CR", "kubevirt")
    // The image's environment may say where these are (the dev cluster's image map does), so the
    // operator's DaemonSet stays the same everywhere.
    .option(
      "--state-dir <dir>",
      "per-VM files (default: $VIRT_HANDLER_STATE_DIR, else /var/lib/kubevirt-ts/vms)",
      env.VIRT_HANDLER_STATE_DIR,
    )
    .option(
      "--image-store <dir>",
      "local image store for containerDisks (default: $VIRT_HANDLER_IMAGE_STORE)",
      env.VIRT_HANDLER_IMAGE_STORE ?? "/var/lib/kubevirt-ts/images",
    )
    .option(
      "--image-cache <dir>",
      "the node's cache of pulled containerDisk images (default: $VIRT_HANDLER_IMAGE_CACHE)",
      env.VIRT_HANDLER_IMAGE_CACHE ?? "/var/lib/kubevirt-ts/image-cache",
    )
    .option(
      "--image-cache-size <bytes>",
      "unused cached images are removed, least recently used first, beyond this size",
      parseByteCount,
      20 * 1024 ** 3,
    )
    .option(
      "--registry-hosts <dir>",
      "registry mirrors as containerd's hosts.toml files, <dir>/<host[:port]>/hosts.toml (default: $VIRT_HANDLER_REGISTRY_HOSTS, else the node's containerd's)",
      env.VIRT_HANDLER_REGISTRY_HOSTS ?? NODE_CONTAINERD_HOSTS_DIR,
    )
    .option(
      "--registries-conf <file>",
      "registry mirrors as containers-registries.conf(5) v2 (default: $VIRT_HANDLER_REGISTRIES_CONF)",
      env.VIRT_HANDLER_REGISTRIES_CONF,
    )
    .option(
      "--kubelet-pods-dir <dir>",
      "the kubelet's pods directory as mounted in this container: launcher pods' secret volumes are read there",
      DEFAULT_KUBELET_PODS_DIR,
    )
    // The listening flags of runtime/cli/serving-options.ts, as virt-controller and virt-operator have them.
    .option(
      "--address <ip>",
      "address of the health, metrics and console servers (default: $POD_IP, else 0.0.0.0)",
      env.POD_IP ?? "0.0.0.0",
    )
    .option(
      "--health-port <n>",
      "port of /healthz and /readyz, plain HTTP (0: any free one)",
      parsePort,
      DEFAULT_HEALTH_PORT,
    )
    .option(
      "--metrics-port <n>",
      "port of /metrics over HTTPS with the kubevirt-virt-handler-server-certs certificate (0: any free one)",
      parsePort,
      DEFAULT_METRICS_PORT,
    )
    .option(
      "--console-port <n>",
      "port of the console, VNC and pause server for virt-api (0: any free one)",
      parsePort,
      DEFAULT_CONSOLE_PORT,
    )
    .option("--heartbeat-interval <seconds>", "node heartbeat interval", Number, 30);
  addLogLevelOption(program);
  program.parse(argv, { from: "node" });
  const flags = program.opts<CommandLine>();
  return { ...flags, kubeletPodsDir: containerPath(flags.kubeletPodsDir, env) };
}

function parseByteCount(value: string): number {
  const bytes = Number(value);
  if (!Number.isSafeInteger(bytes) || bytes < 0)
    throw new InvalidArgumentError(`"${value}" is not a number of bytes (for example 21474836480)`);
  return bytes;
}

/**
 * Where this process finds a path of its container. On a node it is the path itself; the dev
 * cluster runs containers as host processes and gives each a directory, $KUBEVIRT_TS_ROOT, where
 * every path the container mounts is found under its container path (dev-cluster/node-agent/README.md).
 */
function containerPath(path: string, env: Readonly<Record<string, string | undefined>>): string {
  const root = env.KUBEVIRT_TS_ROOT;
  return root ? join(root, path) : path;
}
