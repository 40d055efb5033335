import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Clock,
  EventRecorder,
  eventKind,
  isNotFound,
  Manager,
  type ResourceClient,
  type SharedInformer,
  systemClock,
} from "../../runtime/index.js";
import type { PodLogSource } from "../apiserver/pod-logs.js";
import type { ConfigSources } from "./containers/container-config.js";
import type { ImageProgram } from "./containers/image-map.js";
import {
  configMapKind,
  type Node,
  nodeKind,
  type Pod,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  podKind,
  secretKind,
} from "./kinds.js";
import { ContainerLogSource } from "./logs/container-log-source.js";
import { type ApiForwarder, startApiForwarder } from "./network/api-forwarder.js";
import { createPodNetwork, type PodNetworkOptions } from "./network/create-pod-network.js";
import { formatIpv4, parseCidr } from "./network/ipv4.js";
import type { ClusterDnsSettings } from "./network/pod-dns.js";
import type { PodNetwork } from "./network/pod-network.js";
import type { AdoptionReport } from "./pods/adoption.js";
import { type BackOffPolicy, kubeletBackOff } from "./pods/back-off.js";
import { addNodePodController } from "./pods/node-pod-controller.js";
import { NodePodReconciler } from "./pods/node-pod-reconciler.js";
import { SimulatedPods } from "./pods/simulated-pods.js";
import type { WorkerDeps } from "./pods/worker-deps.js";
import { TokenRequester } from "./service-account/token-requester.js";
import { RecordStore } from "./state/record-store.js";

export interface NodeAgentOptions {
  /** Credentials of the agent itself (it reads pods, writes their status, deletes them, asks for tokens). */
  kubeConfig: KubeConfig;
  /** The local node: pods bound to it run as local processes. */
  nodeName: string;
  /** The agent's state: `pods/<uid>/` (records, volumes, service-account files) and `logs/pods/`. */
  dataDir: string;
  /** The image map file (see README): read on every container start. */
  imageMapPath: string;
  /** Images the node runs without the map file saying so (the cluster's add-ons); the file's entries win. */
  builtInImages?: Readonly<Record<string, ImageProgram>>;
  podNetwork: PodNetworkOptions;
  /** kubelet's --cluster-dns and --cluster-domain; absent: pods read the node's resolv.conf. */
  clusterDns?: ClusterDnsSettings;
  /** Called with each pod's new network namespace before its containers start (the Service proxy). */
  preparePodNetwork?: (netns: string) => Promise<void>;
  /** The API server as the node reaches it; pods reach it through the agent's forwarder. */
  apiServer: { host: string; port: number; caCertPem: string };
  /** Port of the forwarder on the bridge address (default 443; 0 picks a free one). */
  apiForwarderPort?: number;
  /** Nodes whose pods become Running and Ready at once, without a process. */
  simulatedNodes?: readonly string[];
  /** Fake addresses of simulated pods (default 10.240.0.0/16). */
  simulatedPodCidr?: string;
  log: Logger;
  clock?: Clock;
  /** Pods synced at once (default 16: the kubelet syncs every pod on its own worker, so a burst of pod starts overlaps). */
  workers?: number;
  /** Crash-loop back-off (default kubelet's: 10 s doubling to 5 min). */
  restartBackOff?: Partial<BackOffPolicy>;
  /** Image pull back-off (default kubelet's: 10 s doubling to 5 min). */
  imagePullBackOff?: Partial<BackOffPolicy>;
  /** How often processes adopted from a previous run are checked for their end (default 500 ms). */
  adoptedPollMs?: number;
}

export interface NodeAgentStopOptions {
  /** Also stop the local pods' processes and remove their networks and the bridge (default false: they keep running for the next agent to adopt). */
  stopPods?: boolean;
  /** With stopPods: the longest grace period given (default 10 s). */
  maxGraceMs?: number;
}

export interface NodeAgent {
  /** Container logs for the API server's pods/log. */
  logs: PodLogSource;
  /** Resolves once the previous run was taken over and pods may start. */
  adopted: Promise<AdoptionReport>;
  network: { mode: PodNetwork["mode"]; hostIP: string };
  /** Where pods reach the API server (KUBERNETES_SERVICE_HOST/PORT). */
  apiEndpoint: { host: string; port: number };
  stop(options?: NodeAgentStopOptions): Promise<void>;
}

/** The node bridge's address for a pod CIDR (its first address): what the API server's certificate must name. */
export function nodeBridgeAddress(cidr: string): string {
  return formatIpv4(parseCidr(cidr).network + 1);
}

/**
 * Starts the node agent: the dev cluster's kubelet for `nodeName` (pods as local processes in
 * their own network namespaces) and kwok for `simulatedNodes`.
 */
export async function startNodeAgent(options: NodeAgentOptions): Promise<NodeAgent> {
  const clock = options.clock ?? systemClock;
  const log = options.log.child({ component: "node-agent", node: options.nodeName });
  const dataDir = resolve(options.dataDir);
  const logsRoot = join(dataDir, "logs");
  mkdirSync(logsRoot, { recursive: true });
  const network = await createPodNetwork(options.podNetwork, log);
  const forwarder = network.mode === "netns" ? await forwardApiServer(options, network, log) : undefined;
  const apiEndpoint = forwarder
    ? { host: forwarder.host, port: forwarder.port }
    : { host: options.apiServer.host, port: options.apiServer.port };
  const manager = new Manager({ name: "node-agent", kubeConfig: options.kubeConfig, log, clock });
  const pods = manager.informer(podKind);
  const nodes = manager.informer(nodeKind);
  const podClient = manager.client.resource(podKind);
  let enqueue: WorkerDeps["enqueue"] = () => {};
  const deps: WorkerDeps = {
    store: new RecordStore(join(dataDir, "pods"), log),
    kubeletRoot: dataDir,
    network,
    ...(options.clusterDns ? { clusterDns: options.clusterDns } : {}),
    ...(options.preparePodNetwork ? { preparePodNetwork: options.preparePodNetwork } : {}),
    logsRoot,
    imageMapPath: resolve(options.imageMapPath),
    builtInImages: options.builtInImages ?? {},
    apiEndpoint,
    caCertPem: options.apiServer.caCertPem,
    tokens: new TokenRequester(manager.client.transport, log),
    sources: configSources(manager, nodes, options.nodeName),
    pods: podClient,
    events: new EventRecorder({
      events: manager.client.resource(eventKind),
      component: "kubelet",
      host: options.nodeName,
      log,
      clock,
    }),
    clock,
    log,
    restartBackOff: { ...kubeletBackOff, ...options.restartBackOff },
    imagePullBackOff: { ...kubeletBackOff, ...options.imagePullBackOff },
    adoptedPollMs: options.adoptedPollMs ?? 500,
    agentEnv: { KUBEVIRT_TS_NODE_NAME: options.nodeName },
    defaultPath: process.env.PATH ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    enqueue: (key, delayMs) => enqueue(key, delayMs),
  };
  const nodePods = new NodePodReconciler({
    deps,
    nodeName: options.nodeName,
    simulatedNodes: new Set(options.simulatedNodes ?? []),
    simulated: simulatedPods(options, podClient, nodes, clock, log),
    pods,
    log,
  });
  const controller = addNodePodController(manager, {
    reconciler: nodePods,
    pods,
    nodes,
    workers: options.workers ?? 16,
  });
  enqueue = (key, delayMs) => (delayMs ? controller.enqueueAfter(key, delayMs) : controller.enqueue(key));
  const adopted = adoptWhenSynced(manager, pods, nodePods);
  await manager.start();
  return {
    logs: new ContainerLogSource(logsRoot, nodePods, clock),
    adopted,
    network: { mode: network.mode, hostIP: network.hostIP },
    apiEndpoint,
    async stop(stopOptions = {}) {
      await manager.stop();
      await nodePods.stop(stopOptions.stopPods ?? false, stopOptions.maxGraceMs ?? 10_000);
      await forwarder?.close();
      await network.close(stopOptions.stopPods ?? false);
    },
  };
}

/** Runs the adoption once the pod cache has synced, as a runnable of the manager. */
function adoptWhenSynced(
  manager: Manager,
  pods: SharedInformer<Pod>,
  nodePods: NodePodReconciler,
): Promise<AdoptionReport> {
  return new Promise((resolveAdopted, rejectAdopted) => {
    manager.add({
      name: "node-agent-adoption",
      needsLeaderElection: false,
      async run(signal) {
        if (!(await pods.waitForSync(signal))) return;
        try {
          resolveAdopted(await nodePods.adopt());
        } catch (error) {
          rejectAdopted(error);
          throw new Error("cannot take over the previous run's pods", { cause: error });
        }
      },
    });
  });
}

async function forwardApiServer(
  options: NodeAgentOptions,
  network: PodNetwork,
  log: Logger,
): Promise<ApiForwarder> {
  const forward = (port: number) =>
    startApiForwarder({ listenHost: network.hostIP, listenPort: port, target: options.apiServer, log });
  const port = options.apiForwarderPort ?? 443;
  try {
    return await forward(port);
  } catch (error) {
    if (port === 0) throw error;
    log.warn({ err: error, port }, "the API server forwarder's port is taken: using a free one");
    return forward(0);
  }
}

function configSources(manager: Manager, nodes: SharedInformer<Node>, nodeName: string): ConfigSources {
  const orUndefined = async <T>(read: Promise<T>): Promise<T | undefined> => {
    try {
      return await read;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };
  return {
    configMap: (namespace, name) =>
      orUndefined(manager.client.resource(configMapKind).get({ namespace, name })),
    secret: (namespace, name) => orUndefined(manager.client.resource(secretKind).get({ namespace, name })),
    persistentVolumeClaim: (namespace, name) =>
      orUndefined(manager.client.resource(persistentVolumeClaimKind).get({ namespace, name })),
    persistentVolume: (name) => orUndefined(manager.client.resource(persistentVolumeKind).get({ name })),
    // The informer's copy: the node agent watches its Node anyway, and labels change rarely.
    node: async () => nodes.get(nodeName),
  };
}

function simulatedPods(
  options: NodeAgentOptions,
  pods: ResourceClient<Pod>,
  nodes: SharedInformer<Node>,
  clock: Clock,
  log: Logger,
): SimulatedPods {
  return new SimulatedPods({ pods, nodes, cidr: options.simulatedPodCidr ?? "10.240.0.0/16", clock, log });
}
