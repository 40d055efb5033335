// virt-handler: the node agent. One per node; it turns the VMIs scheduled to its node into libvirt
// domains, reports their life into the VMIs, and keeps the node's heartbeat, schedulable label and
// KVM resource. startVirtHandler wires it together; main.ts runs it as a process, tests in theirs.
//
// libvirt's event pump holds one libuv pool thread for the life of the process: run it with
// UV_THREADPOOL_SIZE=8 (main.ts's shebang does). Setting the variable from inside an ES module is
// too late: Node's ESM loader has started the pool by then.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import type { Connection, ReconnectOptions } from "../libvirt/index.js";
import {
  type Frozen,
  isNotFound,
  Manager,
  type ManagerExit,
  persistentVolumeClaimKind,
} from "../runtime/index.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { ClusterConfig } from "./config/cluster-config.js";
import type { ConsoleServer } from "./console-server/console-server.js";
import { serveConsoles } from "./console-server/serve-consoles.js";
import { LocalImageStore, RegistryImageSource, RoutedImageSources } from "./container-disk/index.js";
import { efiFirmwareInstalled } from "./converter/index.js";
import { ConverterDomainFactory } from "./domain/converter-domain-factory.js";
import { launcherCpuShares } from "./domain/cpu-weight.js";
import { DomainLifecycle } from "./domain/domain-lifecycle.js";
import { HotplugDisks } from "./domain/hotplug-disks.js";
import { QemuAccounting } from "./domain/qemu-accounting.js";
import { checkSocketPathsFit } from "./domain/socket-paths.js";
import type { VmiDomainFactory } from "./domain/vmi-domain-factory.js";
import { followLibvirt } from "./follow-libvirt.js";
import { AgentProbes } from "./guest-agent/agent-probes.js";
import { GuestAgentMonitor } from "./guest-agent/guest-agent-monitor.js";
import { nodeKind, type Vmi } from "./kinds.js";
import { libvirtAnswers, openLibvirt } from "./libvirt-connection.js";
import { PodTapCounters } from "./metrics/pod-tap-counters.js";
import { sampleRunningVmis } from "./metrics/running-vmi-samples.js";
import { registerVmiMetrics } from "./metrics/vmi-metrics.js";
import { libvirtdNetns, libvirtdRoot } from "./network/launcher-process.js";
import { PodNetworkSetup } from "./network/pod-network-setup.js";
import { PodNetworks } from "./network/pod-networks.js";
import { checkHostTools } from "./node/host-tools.js";
import { kvmBootProbe } from "./node/kvm-boot-probe.js";
import { detectKvm, type KvmStatus } from "./node/kvm-detection.js";
import { NodeHeartbeat } from "./node/node-heartbeat.js";
import { watchNodeInformers } from "./node-informers.js";
import { runCommand } from "./storage/host-commands.js";
import { CREATED_BY_INDEX, launcherPodFor } from "./vmi/launcher-pod.js";
import { DEFAULT_KUBELET_PODS_DIR, KubeletPodVolumes } from "./vmi/launcher-pod-volumes.js";
import { StartupSweep } from "./vmi/startup-sweep.js";
import { addVmiController } from "./vmi/vmi-controller.js";

/** The node's pulled images may take this much before unused ones are removed (a flag's default too). */
export const DEFAULT_IMAGE_CACHE_BYTES = 20 * 1024 ** 3;

export interface VirtHandlerOptions {
  readonly nodeName: string;
  readonly libvirtUri: string;
  readonly kubeConfig: KubeConfig;
  /** Where the KubeVirt CR lives. */
  readonly namespace: string;
  /** Per-VM directories, one per VMI uid. */
  readonly stateDir: string;
  /** The local image store directory `localhost/NAME:TAG` containerDisks resolve from (LocalImageStore). */
  readonly imageStore: string;
  /** Pulled images: the node's cache directory and its size budget (bytes). */
  readonly imageCache?: { readonly directory: string; readonly maxBytes: number };
  /** Registry mirrors: containerd hosts.toml directory, containers-registries.conf file. */
  readonly registryHosts?: string | undefined;
  readonly registriesConf?: string | undefined;
  /** The kubelet's pods directory, where launcher pods' secret volumes are read (default /var/lib/kubelet/pods). */
  readonly kubeletPodsDir?: string;
  /** /healthz and /readyz, plain HTTP; undefined serves neither. */
  readonly listen?: { readonly host: string; readonly port: number };
  /**
   * /metrics over HTTPS (port 0: any free one) with the certificate of the Secret
   * `kubevirt-virt-handler-server-certs` in `namespace`, once it exists; undefined serves none.
   */
  readonly metrics?: { readonly host: string; readonly port: number };
  /**
   * The console, VNC and pause server for virt-api (port 0: any free one), with the certificate of
   * the Secret `kubevirt-virt-handler-server-certs` in `namespace`; undefined serves none.
   */
  readonly console?: {
    readonly host: string;
    readonly port: number;
    /** Between WebSocket pings (default 15 s): a test seam. */
    readonly pingIntervalMs?: number;
  };
  readonly heartbeatIntervalMs?: number;
  /** VMIs reconciled at once (default 4). */
  readonly workers?: number;
  readonly log: Logger;
  /** Test seams: a known KVM status instead of probing, another factory, libvirt reconnection. */
  readonly kvm?: KvmStatus;
  readonly factory?: VmiDomainFactory;
  readonly reconnect?: ReconnectOptions;
}

export interface RunningVirtHandler {
  readonly manager: Manager;
  readonly connection: Connection;
  readonly kvm: KvmStatus;
  /** Present when `console` was given; its `address` once it listens. */
  readonly consoleServer: ConsoleServer | undefined;
  /** Stops the handler; the VMs keep running. */
  stop(): Promise<void>;
  /** Resolves once the handler stopped (and closed its libvirt connection). */
  readonly done: Promise<ManagerExit>;
}

export async function startVirtHandler(options: VirtHandlerOptions): Promise<RunningVirtHandler> {
  const { log, nodeName } = options;
  checkSocketPathsFit(options.stateDir);
  await mkdir(options.stateDir, { recursive: true });
  const kvm = options.kvm ?? (await detectKvm({ bootProbe: () => kvmBootProbe() }));
  log.info({ node: nodeName, kvm: kvm.usable, detail: kvm.detail }, "KVM detection");
  const connection = await openLibvirt(options.libvirtUri, options.reconnect, log);
  const factory =
    options.factory ??
    new ConverterDomainFactory({
      images: new RoutedImageSources(
        new LocalImageStore(options.imageStore),
        new RegistryImageSource({
          cacheDirectory: options.imageCache?.directory ?? join(options.stateDir, "..", "image-cache"),
          maxCacheBytes: options.imageCache?.maxBytes ?? DEFAULT_IMAGE_CACHE_BYTES,
          ...(options.registryHosts ? { hostsDirectory: options.registryHosts } : {}),
          ...(options.registriesConf ? { registriesConf: options.registriesConf } : {}),
          log: log.child({ component: "image-pull" }),
        }),
      ),
      efiFirmwareAvailable: await efiFirmwareInstalled(),
    });
  const serverSecret = { namespace: options.namespace, name: CERTIFICATE_SECRETS.handlerServer };
  const manager = new Manager({
    name: "virt-handler",
    kubeConfig: options.kubeConfig,
    log,
    ...(options.listen ? { health: { ...options.listen } } : {}),
    ...(options.metrics ? { metrics: { ...options.metrics, secret: serverSecret } } : {}),
  });
  const { stopWiring, consoleServer } = wire(manager, connection, factory, kvm, options);
  await manager.start();
  const done = manager.done.then(async (exit) => {
    stopWiring();
    await connection.close();
    return exit;
  });
  return {
    ...{ manager, connection, kvm, consoleServer, done },
    stop: () => manager.stop().then(() => undefined),
  };
}

/** Informers, controllers and runnables; returns what undoes the subscriptions made outside the manager. */
function wire(
  manager: Manager,
  connection: Connection,
  factory: VmiDomainFactory,
  kvm: KvmStatus,
  options: VirtHandlerOptions,
): { stopWiring: () => void; consoleServer: ConsoleServer | undefined } {
  const { nodeName, log } = options;
  const informers = watchNodeInformers(manager, nodeName);
  const podsDir = options.kubeletPodsDir ?? DEFAULT_KUBELET_PODS_DIR;
  const claims = manager.client.resource(persistentVolumeClaimKind);
  const podVolumes = new KubeletPodVolumes({
    podsDir,
    pods: informers.pods,
    claim: (namespace, name) =>
      claims.get({ namespace, name }).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      }),
  });
  const launcherPod = (vmi: Frozen<Vmi>) =>
    launcherPodFor(vmi, informers.pods.byIndex(CREATED_BY_INDEX, vmi.metadata?.uid ?? ""));
  const podNetworks = new PodNetworks({
    setup: new PodNetworkSetup(runCommand, () => libvirtdNetns()),
    launcherPod,
    podsDir,
  });
  const lifecycle = new DomainLifecycle({
    ...{ connection, factory, nodeName, stateDir: options.stateDir },
    podVolumes: (vmi) => podVolumes.of(vmi),
    podNetworks,
    runningCpuShares: (vmi) => launcherCpuShares(launcherPod(vmi)),
    hotplug: new HotplugDisks({ podVolumes }),
    // libvirt's test driver runs no QEMU.
    ...(connection.requestedUri.startsWith("test:")
      ? {}
      : {
          accounting: new QemuAccounting({
            launcherPodUid: (vmi) => launcherPod(vmi)?.metadata?.uid,
            qemuPidDir: "/run/libvirt/qemu",
            // The node's cgroup hierarchies, through libvirtd's root (hostPID): in a container
            // /sys/fs/cgroup shows only the container's own cgroups.
            nodeCgroupRoot: async () => join(await libvirtdRoot(), "sys", "fs", "cgroup"),
          }),
        }),
  });
  const guestAgent = new GuestAgentMonitor({
    connection,
    // Called only once the manager runs, after the controller below exists.
    enqueue: (key) => controller.enqueue(key),
    log: log.child({ component: "guest-agent" }),
  });
  manager.add(guestAgent);
  const agentProbes = new AgentProbes({
    ...{ nodeName, vmis: informers.vmis, connection, factory },
    enqueue: (key) => controller.enqueue(key),
    log: log.child({ component: "guest-agent-probes" }),
  });
  manager.add(agentProbes);
  const agentReports = {
    reportOf: (domainName: string) => guestAgent.reportOf(domainName),
    readinessOf: (domainName: string) => agentProbes.readinessOf(domainName),
  };
  const controller = addVmiController(manager, {
    ...{ nodeName, informers, connection, factory, lifecycle, kvm, log, guestAgent: agentReports },
    config: new ClusterConfig(informers.kubevirts, options.namespace),
    workers: options.workers ?? 8,
  });
  const sweep = new StartupSweep({
    ...{ nodeName, stateDir: options.stateDir, connection, factory, lifecycle, vmis: informers.vmis, log },
    alsoSynced: [informers.pods, informers.kubevirts],
    enqueue: (key) => controller.enqueue(key),
  });
  manager.add(sweep);
  const heartbeat = new NodeHeartbeat({
    nodeName,
    nodes: manager.client.resource(nodeKind),
    libvirtAnswers: () => libvirtAnswers(connection),
    kvm,
    hostTools: () => checkHostTools(),
    ...(options.heartbeatIntervalMs ? { intervalMs: options.heartbeatIntervalMs } : {}),
    log,
  });
  manager.add(heartbeat);
  const podTaps = new PodTapCounters({ launcherPod });
  registerVmiMetrics({
    registry: manager.registry,
    nodeName,
    sample: () =>
      sampleRunningVmis(informers.vmis.list(), {
        ...{ connection, factory, podTaps, log },
        libvirtUri: options.libvirtUri,
      }),
  });
  const stopWiring = followLibvirt(connection, log, {
    domainChanged: (key) => controller.enqueue(key),
    connectionChanged: () => heartbeat.trigger(),
    reconnected: () => {
      for (const key of informers.vmis.keys()) controller.enqueue(key);
      sweep.enqueueNodeDomains();
    },
  });
  const consoleServer =
    options.console &&
    serveConsoles(manager, {
      ...options.console,
      ...{ namespace: options.namespace, nodeName, vmis: informers.vmis, connection, factory, log },
    });
  return { stopWiring, consoleServer };
}
