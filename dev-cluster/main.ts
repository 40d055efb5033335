#!/usr/bin/env node
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";
import { Command, InvalidArgumentError } from "commander";
import type { Logger } from "pino";
import { componentLogger, KubeClient } from "../runtime/index.js";
import { DeferredPodLogs } from "./apiserver/deferred-pod-logs.js";
import { startDevApiServer } from "./apiserver/dev-api-server.js";
import { clusterDnsIp, DEFAULT_SERVICE_CIDR } from "./apiserver/services/address-ranges.js";
import { startClusterDns } from "./cluster-dns/cluster-dns.js";
import { startWorkloadControllers } from "./controllers/workload-controllers.js";
import {
  installLocalPathStorage,
  LOCAL_PATH_PROVISIONER_IMAGE_KEY,
} from "./local-path-provisioner/install-objects.js";
import { startApiForwarder } from "./node-agent/network/api-forwarder.js";
import { nodeBridgeAddress, startNodeAgent } from "./node-agent/node-agent.js";
import { readMachineFacts } from "./nodes/machine.js";
import { startNodeLifecycle } from "./nodes/node-lifecycle.js";
import { startNodes } from "./nodes/start-nodes.js";
import { startDevRegistry } from "./registry/dev-registry.js";
import { startScheduler } from "./scheduler/scheduler.js";
import { type RunningServiceProxy, startServiceProxy } from "./service-proxy/service-proxy.js";

function wholeNumber(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > max)
      throw new InvalidArgumentError(`${what} is a whole number from 0 to ${max}`);
    return n;
  };
}

/** A Linux interface name: at most 15 characters, no slashes or spaces. */
function bridgeName(value: string): string {
  if (!/^[a-zA-Z0-9_.-]{1,15}$/.test(value)) {
    throw new InvalidArgumentError("a bridge name has 1 to 15 letters, digits, '.', '_' or '-'");
  }
  return value;
}

interface UpOptions {
  dataDir: string;
  port: number;
  kubeconfig: string;
  nodeName: string;
  simulatedNodes: number;
  podCidr: string;
  bridgeName: string;
  serviceCidr: string;
  clusterDomain: string;
  imageMap?: string;
  /** false with --no-registry. */
  registry: boolean;
  registryAddress: string;
}

/** The images the dev cluster runs without being told: the VM launcher's pause-like container. */
const DEFAULT_IMAGE_MAP = { images: { "virt-launcher": { command: ["sleep", "infinity"] } } };

/**
 * The cluster's own add-ons, which the node runs whatever image map it is given (the map may
 * still override them): the local-path provisioner is this build's program.
 */
const BUILT_IN_IMAGES = {
  [LOCAL_PATH_PROVISIONER_IMAGE_KEY]: {
    command: [process.execPath, fileURLToPath(new URL("./local-path-provisioner/main.js", import.meta.url))],
  },
};

interface Stoppable {
  name: string;
  stop(): Promise<unknown>;
}

/**
 * `dev-cluster up`: the API server, the nodes (the local one and simulated ones), the
 * scheduler, the workload controllers and the node agent that runs the local node's pods.
 * Everything but the API server talks to it as a client, as in a real cluster.
 */
async function up(options: UpOptions, log: Logger): Promise<Stoppable[]> {
  const dataDir = resolve(options.dataDir);
  const kubeconfigPath = resolve(options.kubeconfig);
  const podLogs = new DeferredPodLogs();
  const server = await startDevApiServer({
    dataDir,
    port: options.port,
    kubeconfigPath,
    podLogs,
    servingIps: [nodeBridgeAddress(options.podCidr)],
    serviceCidr: options.serviceCidr,
    // As root, pods live in namespaces behind the node bridge and reach the API server through
    // the node agent's relay there: that is where the `kubernetes` Service sends them.
    ...(process.getuid?.() === 0
      ? { advertiseAddress: nodeBridgeAddress(options.podCidr), advertisePort: 443 }
      : {}),
    log: log.child({ component: "apiserver" }),
  });
  const started: Stoppable[] = [{ name: "apiserver", stop: () => server.close() }];
  try {
    const registry = options.registry
      ? await startDevRegistry({
          dataDir,
          address: options.registryAddress,
          ...(process.getuid?.() === 0 ? { nodeHost: nodeBridgeAddress(options.podCidr) } : {}),
          log: log.child({ component: "registry" }),
        })
      : undefined;
    if (registry) started.push({ name: "registry", stop: () => registry.stop() });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    const simulated = options.simulatedNodes > 0 ? { count: options.simulatedNodes } : undefined;
    const nodes = await startNodes({
      kubeConfig,
      log: log.child({ component: "nodes" }),
      localNode: { name: options.nodeName },
      ...(simulated ? { simulated } : {}),
    });
    started.push({ name: "nodes", stop: () => nodes.stop() });
    const nodeLifecycle = await startNodeLifecycle({
      kubeConfig,
      log: log.child({ component: "node-lifecycle" }),
    });
    started.push({ name: "node-lifecycle", stop: () => nodeLifecycle.stop() });
    const controllers = await startWorkloadControllers({
      kubeConfig,
      log: log.child({ component: "controllers" }),
    });
    started.push({ name: "controllers", stop: () => controllers.stop() });
    const scheduler = await startScheduler({ kubeConfig, log: log.child({ component: "scheduler" }) });
    started.push({ name: "scheduler", stop: () => scheduler.stop() });

    const imageMapPath = options.imageMap ? resolve(options.imageMap) : join(dataDir, "image-map.json");
    if (!options.imageMap) await writeFile(imageMapPath, `${JSON.stringify(DEFAULT_IMAGE_MAP, null, 2)}\n`);
    // The proxy needs the node bridge, which the agent makes; pods started before the proxy
    // runs are programmed by its first sync.
    let proxy: RunningServiceProxy | undefined;
    const dnsIp = clusterDnsIp(options.serviceCidr);
    const agent = await startNodeAgent({
      clusterDns: { nameservers: [dnsIp], domain: options.clusterDomain },
      preparePodNetwork: async (netns) => proxy?.preparePodNetwork(netns),
      kubeConfig,
      nodeName: options.nodeName,
      dataDir: join(dataDir, "node-agent"),
      imageMapPath,
      builtInImages: BUILT_IN_IMAGES,
      podNetwork: { bridgeName: options.bridgeName, cidr: options.podCidr },
      apiServer: { host: "127.0.0.1", port: server.port, caCertPem: server.caCertPem },
      simulatedNodes: nodes.nodeNames.filter((name) => name !== options.nodeName),
      log: log.child({ component: "node-agent" }),
    });
    podLogs.bind(agent.logs);
    // A graceful stop ends the local pods; after a kill -9 the next start adopts them instead.
    started.push({ name: "node-agent", stop: () => agent.stop({ stopPods: true }) });
    if (agent.network.mode === "netns") {
      const bridgeAddress = agent.network.hostIP;
      const { internalIP } = await readMachineFacts(dataDir);
      proxy = await startServiceProxy({
        kubeConfig,
        bridge: options.bridgeName,
        podCidr: options.podCidr,
        bridgeAddress,
        serviceCidr: options.serviceCidr,
        nodeAddresses: [...new Set([bridgeAddress, internalIP])],
        log: log.child({ component: "service-proxy" }),
      });
      const runningProxy = proxy;
      // Stopped (in reverse) before the agent, which removes the bridge the rules name.
      started.push({ name: "service-proxy", stop: () => runningProxy.stop() });
      const dns = await startClusterDns({
        kubeConfig,
        domain: options.clusterDomain,
        clusterIP: dnsIp,
        listenAddress: bridgeAddress,
        log: log.child({ component: "cluster-dns" }),
      });
      started.push({ name: "cluster-dns", stop: () => dns.stop() });
      if (registry) {
        // The registry listens on the host's loopback (for users pushing from the host); pods, virt-handler
        // among them, reach it on the bridge, as the nodes' mirror configuration says.
        const port = Number(registry.address.slice(registry.address.lastIndexOf(":") + 1));
        const relay = await startApiForwarder({
          listenHost: bridgeAddress,
          listenPort: port,
          target: { host: registry.address.slice(0, registry.address.lastIndexOf(":")), port },
          what: "the image registry",
          log: log.child({ component: "registry" }),
        });
        started.push({ name: "registry-relay", stop: () => relay.close() });
      }
    } else {
      log.warn("pods share the node's network: no Service dataplane and no cluster DNS");
    }
    await installStorage(
      kubeConfig,
      { baseDir: join(dataDir, "local-path"), nodeName: options.nodeName },
      log,
    );
    log.info(
      { url: server.url, kubeconfig: kubeconfigPath, nodes: nodes.nodeNames, registry: registry?.address },
      "dev cluster is up",
    );
    process.stdout.write(
      `dev cluster is up at ${server.url} with node ${options.nodeName}` +
        `${options.simulatedNodes > 0 ? ` and ${options.simulatedNodes} simulated nodes` : ""}\n` +
        `  export KUBECONFIG=${kubeconfigPath}\n  kubectl get nodes\n` +
        (registry ? `${registry.banner}\n` : ""),
    );
    return started;
  } catch (error) {
    await stopAll(started, log);
    throw error;
  }
}

/**
 * The default StorageClass and the local-path provisioner's objects, at every start. A failure is
 * reported, never fatal: the cluster is useful without persistent volumes, and the provisioner
 * itself is a pod that starts (or fails) on its own, so `up` never waits for it.
 */
async function installStorage(
  kubeConfig: KubeConfig,
  settings: { baseDir: string; nodeName: string },
  log: Logger,
): Promise<void> {
  const client = KubeClient.fromKubeConfig(kubeConfig, { fieldManager: "dev-cluster" });
  try {
    await installLocalPathStorage(client, settings);
  } catch (error) {
    log.warn({ err: error }, "cannot install the local-path storage classes and provisioner");
  } finally {
    client.close();
  }
}

async function stopAll(started: Stoppable[], log: Logger): Promise<void> {
  for (const part of [...started].reverse()) {
    try {
      await part.stop();
    } catch (error) {
      log.error({ err: error, component: part.name }, "stopping failed");
    }
  }
}

const program = new Command("dev-cluster").description(
  "kubevirt-ts's embedded Kubernetes-compatible development cluster",
);
program
  .command("up")
  .description("start the dev cluster in the foreground (Ctrl+C stops it)")
  .option("--data-dir <dir>", "where the cluster keeps its state", ".local/dev-cluster")
  .option(
    "--port <n>",
    "HTTPS port of the API server (0 picks a free port)",
    wholeNumber("a port", 65535),
    6443,
  )
  .option("--kubeconfig <file>", "kubeconfig to write once the server is ready", ".local/kubeconfig")
  .option("--node-name <name>", "name of the local node", hostname().toLowerCase())
  .option(
    "--simulated-nodes <n>",
    "simulated nodes besides the local one (their pods run no process)",
    wholeNumber("a node count", 10_000),
    0,
  )
  .option("--pod-cidr <cidr>", "address range of the local node's pods", "10.244.0.0/24")
  .option(
    "--bridge-name <name>",
    "the node bridge of the pods' network (two dev clusters on one machine need two)",
    bridgeName,
    "kvts0",
  )
  .option("--service-cidr <cidr>", "address range of ClusterIP Services", DEFAULT_SERVICE_CIDR)
  .option("--cluster-domain <domain>", "the cluster's DNS domain", "cluster.local")
  .option(
    "--image-map <file>",
    "image map of the node agent (which program runs which image); default: the launcher only",
  )
  .option(
    "--registry-address <host:port>",
    "where the dev cluster's image registry listens (port 0 picks a free port)",
    "127.0.0.1:5000",
  )
  .option("--no-registry", "run no image registry")
  .action(async (options: UpOptions) => {
    const log = componentLogger({ name: "dev-cluster", level: process.env.LOG_LEVEL ?? "info" });
    const startup = up(options, log);
    // A terminal's Ctrl+C may arrive twice (from the tty and from a parent forwarding it):
    // the first starts the shutdown, later ones must not cut it short. A signal that comes while the
    // cluster still starts (its kubeconfig is written early) stops it once it is up, never half way.
    let stopping = false;
    const shutdown = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "shutting down");
      startup
        .then((started) => stopAll(started, log))
        .then(
          () => process.exit(0),
          () => undefined, // a failed start says why and exits below
        );
    };
    process.on("SIGINT", () => shutdown("SIGINT"));
    process.on("SIGTERM", () => shutdown("SIGTERM"));
    try {
      await startup;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      process.stderr.write(
        `dev-cluster: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
      );
      process.exit(1);
    }
  });

await program.parseAsync(process.argv);
