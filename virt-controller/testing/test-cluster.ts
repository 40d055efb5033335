/**
 * virt-controller's test cluster: the dev API server with the kubevirt.io CRDs from crds/, the
 * `kubevirt` namespace, one Node that KubeVirt may use (schedulable label, /dev/kvm capacity),
 * the dev cluster's real scheduler, and a kubelet for launcher pods. Controllers run in-process
 * (`startController`) or as `virt-controller` processes (the caller's business).
 */
import { type RunningScheduler, startScheduler } from "../../dev-cluster/scheduler/index.js";
import {
  KubeClient,
  Manager,
  type ManagerExit,
  namespaceKind,
  nodeKind,
  systemClock,
} from "../../runtime/index.js";
import { quietLog, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { installKubevirtCrds } from "../../test/harness/kubevirt-crds.js";
import { kubeVirtKind } from "../kinds.js";
import { addVirtControllers } from "../virt-controller.js";
import type { StartBackoffOptions } from "../vm/start-failure.js";
import { LauncherKubelet } from "./launcher-kubelet.js";

export { quietLog };
export const KUBEVIRT_NAMESPACE = "kubevirt";
export const NODE_NAME = "node-a";

export interface InProcessController {
  manager: Manager;
  stop(): Promise<ManagerExit>;
}

export interface ControllerTestOptions {
  launcherImage?: string;
  startBackoff?: StartBackoffOptions;
}

export interface VirtTestCluster {
  api: TestApiServer;
  client: KubeClient;
  kubelet: LauncherKubelet;
  startController(options?: ControllerTestOptions): Promise<InProcessController>;
  /** Creates or replaces the KubeVirt CR's developerConfiguration.useEmulation. */
  setUseEmulation(useEmulation: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startVirtTestCluster(): Promise<VirtTestCluster> {
  const api = await startTestApiServer();
  const client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "virt-controller-test" });
  const controllers: InProcessController[] = [];
  let kubelet: LauncherKubelet | undefined;
  let scheduler: RunningScheduler | undefined;
  try {
    await installKubevirtCrds(client);
    await client.resource(namespaceKind).create({ metadata: { name: KUBEVIRT_NAMESPACE } });
    await addKubeVirtNode(client, NODE_NAME);
    scheduler = await startScheduler({ kubeConfig: api.kubeConfig(), log: quietLog });
    kubelet = await LauncherKubelet.start(api.kubeConfig(), NODE_NAME, quietLog);
  } catch (error) {
    await scheduler?.stop();
    client.close();
    await api.close();
    throw error;
  }
  const running = { kubelet, scheduler };
  return {
    api,
    client,
    kubelet,
    async startController(options = {}) {
      const controller = await startInProcessController(api, options);
      controllers.push(controller);
      return controller;
    },
    async setUseEmulation(useEmulation) {
      await client.resource(kubeVirtKind).apply(
        {
          metadata: { name: "kubevirt", namespace: KUBEVIRT_NAMESPACE },
          spec: { configuration: { developerConfiguration: { useEmulation } } },
        },
        { force: true },
      );
    },
    async close() {
      for (const controller of controllers.splice(0)) await controller.stop();
      await running.kubelet.stop();
      await running.scheduler.stop();
      client.close();
      await api.close();
    },
  };
}

async function startInProcessController(
  api: TestApiServer,
  options: ControllerTestOptions,
): Promise<InProcessController> {
  const manager = new Manager({
    name: "virt-controller",
    kubeConfig: api.kubeConfig(),
    log: quietLog,
    gracefulShutdownMs: 5000,
  });
  addVirtControllers(manager, {
    namespace: KUBEVIRT_NAMESPACE,
    launcherImage: options.launcherImage ?? "virt-launcher",
    clock: systemClock,
    ...(options.startBackoff ? { startBackoff: options.startBackoff } : {}),
  });
  await manager.start();
  let stopped: Promise<ManagerExit> | undefined;
  return {
    manager,
    stop() {
      stopped ??= manager.stop().then(() => manager.done);
      return stopped;
    },
  };
}

/** A Ready node that KubeVirt may use: the schedulable label and /dev/kvm capacity (as virt-handler reports them). */
async function addKubeVirtNode(client: KubeClient, name: string): Promise<void> {
  const nodes = client.resource(nodeKind);
  await nodes.create({
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubevirt.io/schedulable": "true",
      },
    },
  });
  const capacity = { cpu: "16", memory: "64Gi", pods: "110", "devices.kubevirt.io/kvm": "1k" };
  await nodes.mergePatch(
    { name },
    {
      status: {
        capacity,
        allocatable: capacity,
        conditions: [
          {
            type: "Ready",
            status: "True",
            reason: "KubeletReady",
            message: "kubelet is posting ready status",
          },
        ],
      },
    },
    { subresource: "status" },
  );
}
