#!/usr/bin/env -S UV_THREADPOOL_SIZE=8 node
// virt-handler: the node agent. One per node; it turns the VMIs scheduled to its node into libvirt
// domains, reports their life into the VMIs, and keeps the node's heartbeat, schedulable label and
// KVM resource. This file is the only place where it is wired together.
//
// libvirt's event pump holds one libuv pool thread for the life of the process: run it with
// UV_THREADPOOL_SIZE=8 (the shebang does, when the file is executed directly). Setting the
// variable from inside an ES module is too late: Node's ESM loader has started the pool by then.
import { realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import { pathToFileURL } from "node:url";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { LABELS } from "../api/index.js";
import { Connection, type ReconnectOptions } from "../libvirt/index.js";
import {
  Backoff,
  type Controller,
  componentLogger,
  loadKubeConfig,
  Manager,
  type ManagerExit,
  objectKey,
  type SharedInformer,
  sleep,
  stopOnSignals,
  systemClock,
} from "../runtime/index.js";
import { SecretTlsSource } from "../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS } from "../runtime/tls/tls-material.js";
import { withTlsSecret } from "../runtime/tls/with-tls-secret.js";
import { parseCommandLine } from "./cli-options.js";
import { ClusterConfig } from "./config/cluster-config.js";
import { ConsoleServer } from "./console-server/console-server.js";
import { VmiDomainLocator } from "./console-server/vmi-domain-locator.js";
import { LocalImageStore } from "./container-disk/index.js";
import { efiFirmwareInstalled } from "./converter/index.js";
import { ConverterDomainFactory } from "./domain/converter-domain-factory.js";
import { enqueueOnDomainEvents } from "./domain/domain-events.js";
import { DomainLifecycle } from "./domain/domain-lifecycle.js";
import { checkSocketPathsFit } from "./domain/socket-paths.js";
import type { VmiDomainFactory } from "./domain/vmi-domain-factory.js";
import { type KubeVirt, kubeVirtKind, nodeKind, type Pod, podKind, type Vmi, vmiKind } from "./kinds.js";
import { sampleRunningVmis } from "./metrics/running-vmi-samples.js";
import { registerVmiMetrics } from "./metrics/vmi-metrics.js";
import { checkHostTools } from "./node/host-tools.js";
import { kvmBootProbe } from "./node/kvm-boot-probe.js";
import { detectKvm, type KvmStatus } from "./node/kvm-detection.js";
import { NodeHeartbeat } from "./node/node-heartbeat.js";
import { CREATED_BY_INDEX, createdByIndexer } from "./vmi/launcher-pod.js";
import { DEFAULT_KUBELET_PODS_DIR, KubeletPodVolumes } from "./vmi/launcher-pod-volumes.js";
import { runPermission } from "./vmi/run-permission.js";
import { StartupSweep } from "./vmi/startup-sweep.js";
import { withClusterDefaults } from "./vmi/vmi-defaults.js";
import { VmiReconciler, type VmiReconcilerOptions } from "./vmi/vmi-reconciler.js";

export interface VirtHandlerOptions {
  readonly nodeName: string;
  readonly libvirtUri: string;
  readonly kubeConfig: KubeConfig;
  /** Where the KubeVirt CR lives. */
  readonly namespace: string;
  /** Per-VM directories, one per VMI uid. */
  readonly stateDir: string;
  /** The local image store directory containerDisks resolve from (LocalImageStore). */
  readonly imageStore: string;
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

const VMI_UID_INDEX = "uid";

export async function startVirtHandler(options: VirtHandlerOptions): Promise<RunningVirtHandler> {
  const { log, nodeName } = options;
  checkSocketPathsFit(options.stateDir);
  await mkdir(options.stateDir, { recursive: true });
  const kvm = options.kvm ?? (await detectKvm({ bootProbe: () => kvmBootProbe() }));
  log.info({ node: nodeName, kvm: kvm.usable, detail: kvm.detail }, "KVM detection");
  const connection = await openLibvirt(options);
  const factory =
    options.factory ??
    new ConverterDomainFactory({
      images: new LocalImageStore(options.imageStore),
      efiFirmwareAvailable: await efiFirmwareInstalled(),
    });
  const manager = new Manager({
    name: "virt-handler",
    kubeConfig: options.kubeConfig,
    log,
    ...(options.listen ? { health: { ...options.listen } } : {}),
    ...(options.metrics ? { metrics: { ...options.metrics, secret: handlerServerSecret(options) } } : {}),
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

/** Opens libvirt's connection, retrying until it answers (a node's libvirtd may start after us). */
async function openLibvirt(options: VirtHandlerOptions): Promise<Connection> {
  const backoff = new Backoff({ initialMs: 500, maxMs: 10_000 });
  for (;;) {
    try {
      return await Connection.open(options.libvirtUri, { reconnect: options.reconnect ?? {} });
    } catch (error) {
      const delayMs = backoff.next();
      options.log.warn(
        { err: error, uri: options.libvirtUri, retryInMs: delayMs },
        "libvirt does not answer",
      );
      await sleep(systemClock, delayMs);
    }
  }
}

interface Caches {
  readonly vmis: SharedInformer<Vmi>;
  readonly pods: SharedInformer<Pod>;
  readonly kubevirts: SharedInformer<KubeVirt>;
}

/** The VMIs and launcher pods of this node, and the KubeVirt CRs (few: filtered in the cache). */
function watchCaches(manager: Manager, nodeName: string): Caches {
  return {
    vmis: manager.informer(vmiKind, {
      labelSelector: `${LABELS.nodeName}=${nodeName}`,
      indexers: { [VMI_UID_INDEX]: (vmi) => [vmi.metadata?.uid ?? ""] },
      resyncMs: 5 * 60_000, // a look now and then, in case a libvirt event was missed
    }),
    pods: manager.informer(podKind, {
      fieldSelector: `spec.nodeName=${nodeName}`,
      indexers: { [CREATED_BY_INDEX]: createdByIndexer },
    }),
    kubevirts: manager.informer(kubeVirtKind),
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
  const caches = watchCaches(manager, nodeName);
  const config = new ClusterConfig(caches.kubevirts, options.namespace);
  const podsDir = options.kubeletPodsDir ?? DEFAULT_KUBELET_PODS_DIR;
  const podVolumes = new KubeletPodVolumes({ podsDir, pods: caches.pods });
  const lifecycle = new DomainLifecycle({
    ...{ connection, factory, nodeName, stateDir: options.stateDir },
    podVolumes: (vmi) => podVolumes.of(vmi),
  });
  const controller = vmiController(manager, caches, {
    nodeName,
    connection,
    factory,
    lifecycle,
    permission: (vmi) => runPermission(kvm, config.current(), nodeName, vmi),
    withDefaults: (vmi) => withClusterDefaults(vmi, config.current().configuration),
    workers: options.workers ?? 4,
  });
  const enqueueAll = (): void => {
    for (const key of caches.vmis.keys()) controller.enqueue(key);
  };
  config.onChange((current) => {
    log.info({ useEmulation: current.useEmulation }, "KubeVirt configuration changed");
    enqueueAll();
  });
  const sweep = new StartupSweep({
    ...{ nodeName, stateDir: options.stateDir, connection, factory, lifecycle, vmis: caches.vmis, log },
    alsoSynced: [caches.pods, caches.kubevirts],
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
  registerVmiMetrics({
    registry: manager.registry,
    nodeName,
    sample: () => sampleRunningVmis(caches.vmis.list(), connection, factory, options.libvirtUri),
  });
  const stopWiring = followLibvirt(connection, log, {
    domainChanged: (key) => controller.enqueue(key),
    connectionChanged: () => heartbeat.trigger(),
    reconnected: () => {
      enqueueAll();
      sweep.enqueueNodeDomains();
    },
  });
  const consoleListen = options.console;
  const consoleServer =
    consoleListen && serveConsoles(manager, { ...caches, connection, factory }, options, consoleListen);
  return { stopWiring, consoleServer };
}

/**
 * virt-api's way to consoles, VNC and pause: the server runs beside the controllers and starts
 * serving once its certificate's Secret exists. Neither it nor the Secret's watch is in the
 * manager's cache, so readiness never waits for them (nor fails for want of RBAC on Secrets).
 */
function serveConsoles(
  manager: Manager,
  {
    vmis,
    connection,
    factory,
  }: { vmis: SharedInformer<Vmi>; connection: Connection; factory: VmiDomainFactory },
  { log, namespace, nodeName }: VirtHandlerOptions,
  { host, port, pingIntervalMs }: NonNullable<VirtHandlerOptions["console"]>,
): ConsoleServer {
  const secret = handlerServerSecret({ namespace });
  const tls = new SecretTlsSource(manager.client, { ...secret, log });
  const server = new ConsoleServer({
    ...{ host, port, tls, log, ...(pingIntervalMs ? { pingIntervalMs } : {}) },
    tlsOrigin: `${secret.namespace}/${secret.name}`,
    domains: new VmiDomainLocator({ nodeName, vmis, connection, factory }),
  });
  manager.add(withTlsSecret(server, tls));
  return server;
}

/** The handler's serving certificate (virt-operator issues it): console server and metrics. */
function handlerServerSecret({ namespace }: Pick<VirtHandlerOptions, "namespace">): {
  namespace: string;
  name: string;
} {
  return { namespace, name: CERTIFICATE_SECRETS.handlerServer };
}

type ControllerDeps = Omit<VmiReconcilerOptions, "vmis" | "vmiClient" | "launcher" | "events" | "clock"> & {
  readonly workers: number;
};

/** The VMI controller: keyed by VMI, fed by VMI and launcher pod changes (and by libvirt, see followLibvirt). */
function vmiController(manager: Manager, caches: Caches, deps: ControllerDeps): Controller {
  const { workers, ...reconcilerDeps } = deps;
  const reconciler = new VmiReconciler({
    ...reconcilerDeps,
    vmis: caches.vmis,
    vmiClient: manager.client.resource(vmiKind),
    launcher: { pods: caches.pods, podClient: manager.client.resource(podKind) },
    events: manager.events,
    clock: systemClock,
  });
  const controller = manager.controller({
    name: "vmi",
    workers,
    needsLeaderElection: false,
    reconcile: reconciler.reconcile,
  });
  controller.watch(caches.vmis);
  controller.watch(caches.pods, (pod) => {
    const uid = pod.metadata?.labels?.[LABELS.createdBy];
    return uid === undefined ? [] : caches.vmis.byIndex(VMI_UID_INDEX, uid).map((vmi) => objectKey(vmi));
  });
  controller.dependsOn(caches.kubevirts); // never decide on KubeVirt's defaults before the CR was read
  return controller;
}

/** Domain events enqueue their VMI; losing or regaining libvirt's connection is reported at once. */
function followLibvirt(
  connection: Connection,
  log: Logger,
  on: { domainChanged(key: string): void; connectionChanged(): void; reconnected(): void },
): () => void {
  const events = enqueueOnDomainEvents(connection, on.domainChanged);
  const onDisconnected = (): void => {
    log.warn("libvirt's connection was lost: the node is not schedulable until it is back");
    on.connectionChanged();
  };
  const onReconnected = (): void => {
    log.info("libvirt's connection is back: looking at every VMI again");
    on.connectionChanged();
    on.reconnected(); // events of the time without a connection are lost
  };
  connection.on("disconnected", onDisconnected);
  connection.on("reconnected", onReconnected);
  return () => {
    events.unsubscribe();
    connection.off("disconnected", onDisconnected);
    connection.off("reconnected", onReconnected);
  };
}

function libvirtAnswers(connection: Connection): boolean {
  if (!connection.connected) return false;
  try {
    connection.versions();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const flags = parseCommandLine(process.argv);
  const log = componentLogger({ level: flags.logLevel });
  const pool = Number(process.env.UV_THREADPOOL_SIZE ?? "4");
  if (pool < 8) log.warn({ UV_THREADPOOL_SIZE: pool }, "start virt-handler with UV_THREADPOOL_SIZE=8");
  const nodeName = flags.nodeName ?? process.env.NODE_NAME ?? hostname();
  const handler = await startVirtHandler({
    nodeName,
    libvirtUri: flags.libvirtUri,
    kubeConfig: loadKubeConfig(flags.kubeconfig, process.env),
    namespace: flags.namespace,
    // Not per node: one handler per node, and a VM's sockets must fit 107 bytes whatever the
    // node's name (domain/socket-paths.ts).
    stateDir: flags.stateDir ?? "/var/lib/kubevirt-ts/vms",
    imageStore: flags.imageStore,
    kubeletPodsDir: flags.kubeletPodsDir,
    listen: { host: flags.address, port: flags.healthPort },
    metrics: { host: flags.address, port: flags.metricsPort },
    console: { host: flags.address, port: flags.consolePort },
    heartbeatIntervalMs: flags.heartbeatInterval * 1000,
    log,
  });
  log.info({ health: handler.manager.healthUrl }, "virt-handler started");
  stopOnSignals(handler, log);
  const exit = await handler.done;
  process.exitCode = exit.reason === "stopped" ? 0 : 1;
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && import.meta.url === pathToFileURL(realpathSync(entry)).href;
}

if (isEntryPoint()) {
  main().catch((error: unknown) => {
    console.error(`virt-handler: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
