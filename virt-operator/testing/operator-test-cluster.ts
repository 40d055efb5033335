/**
 * virt-operator's test cluster: the dev API server with the kubevirt.io CRDs from crds/ and the
 * `kubevirt` namespace. No workload controllers run: tests write Deployment and DaemonSet status
 * themselves (`markWorkloadsAvailable`) to say the components are up. The operator runs
 * in-process (`startOperator`), as many times as a test wants, one after the other.
 */
import type { Counter } from "prom-client";
import {
  type Clock,
  type Controller,
  defineKind,
  KubeClient,
  type KubeObject,
  Manager,
  type ManagerExit,
  namespaceKind,
  systemClock,
} from "../../runtime/index.js";
import {
  eventually,
  quietLog,
  startTestApiServer,
  type TestApiServer,
} from "../../test/harness/api-server-fixture.js";
import { installKubevirtCrds } from "../../test/harness/kubevirt-crds.js";
import { type KubeVirt, kubeVirtKind } from "../kinds.js";
import { addKubeVirtController } from "../kubevirt/kubevirt-controller.js";
import { MANAGED_KINDS } from "../kubevirt/managed-kinds.js";
import {
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  type OperatorIdentity,
  type RenderStrategy,
} from "../strategy/install-strategy.js";
import { renderTestStrategy, TEST_NAMESPACE } from "./test-strategy.js";

export { namespaceKind, quietLog };
export const IDENTITY: OperatorIdentity = {
  namespace: TEST_NAMESPACE,
  registry: "registry.test/kubevirt-ts",
  version: "v1",
};

export const deploymentKind = defineKind<Workload>({
  group: "apps",
  version: "v1",
  kind: "Deployment",
  plural: "deployments",
  namespaced: true,
});
export const daemonSetKind = defineKind<Workload>({
  group: "apps",
  version: "v1",
  kind: "DaemonSet",
  plural: "daemonsets",
  namespaced: true,
});

export interface Workload extends KubeObject {
  spec?: { replicas?: number; template?: { spec?: { containers?: { image?: string }[] } } };
  status?: Record<string, number>;
}

export interface RunningOperator {
  manager: Manager;
  controller: Controller;
  /** Reconciles of the KubeVirt controller finished so far (any result). */
  reconciles(): Promise<number>;
  stop(): Promise<ManagerExit>;
}

export interface OperatorTestCluster {
  api: TestApiServer;
  client: KubeClient;
  startOperator(options?: {
    renderStrategy?: RenderStrategy;
    gracefulShutdownMs?: number;
    /** The reconciler's clock (certificate validity and renewal); default the system's. */
    clock?: Clock;
  }): Promise<RunningOperator>;
  /** Every object with the managed-by label, as `Kind namespace/name` → resourceVersion. */
  managedObjects(): Promise<Map<string, string>>;
  /** Writes a status saying every managed Deployment and DaemonSet runs its current template. */
  markWorkloadsAvailable(): Promise<void>;
  kubevirt(name?: string): Promise<KubeVirt | undefined>;
  close(): Promise<void>;
}

export async function startOperatorTestCluster(): Promise<OperatorTestCluster> {
  const api = await startTestApiServer();
  const client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "operator-test" });
  const operators: RunningOperator[] = [];
  try {
    await installKubevirtCrds(client);
    await client.resource(namespaceKind).create({ metadata: { name: TEST_NAMESPACE } });
  } catch (error) {
    client.close();
    await api.close();
    throw error;
  }
  return {
    api,
    client,
    async startOperator(options = {}) {
      const operator = await startInProcessOperator(
        api,
        options.renderStrategy ?? renderTestStrategy,
        options.gracefulShutdownMs,
        options.clock,
      );
      operators.push(operator);
      return operator;
    },
    managedObjects: () => listManaged(client),
    markWorkloadsAvailable: () => markWorkloadsAvailable(client),
    async kubevirt(name = "kubevirt") {
      const list = await client.resource(kubeVirtKind).list({ namespace: TEST_NAMESPACE });
      return list.items.find((item) => item.metadata?.name === name);
    },
    async close() {
      for (const operator of operators.splice(0)) await operator.stop();
      client.close();
      await api.close();
    },
  };
}

async function startInProcessOperator(
  api: TestApiServer,
  renderStrategy: RenderStrategy,
  gracefulShutdownMs = 5000,
  clock: Clock = systemClock,
): Promise<RunningOperator> {
  const manager = new Manager({
    name: "virt-operator",
    kubeConfig: api.kubeConfig(),
    log: quietLog,
    gracefulShutdownMs,
  });
  const controller = addKubeVirtController(manager, {
    identity: IDENTITY,
    renderStrategy,
    clock,
  });
  await manager.start();
  let stopped: Promise<ManagerExit> | undefined;
  return {
    manager,
    controller,
    async reconciles() {
      const metric = manager.registry.getSingleMetric("controller_runtime_reconcile_total") as
        | Counter
        | undefined;
      const values = (await metric?.get())?.values ?? [];
      return values
        .filter((value) => value.labels.controller === "kubevirt")
        .reduce((sum, value) => sum + value.value, 0);
    },
    stop() {
      stopped ??= manager.stop().then(() => manager.done);
      return stopped;
    },
  };
}

async function listManaged(client: KubeClient): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const { resource } of MANAGED_KINDS) {
    const list = await client
      .resource(resource)
      .list({ labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}` });
    for (const item of list.items) {
      const { namespace, name, resourceVersion } = item.metadata ?? {};
      found.set(`${resource.kind} ${namespace ? `${namespace}/` : ""}${name ?? ""}`, resourceVersion ?? "");
    }
  }
  return found;
}

async function markWorkloadsAvailable(client: KubeClient): Promise<void> {
  const selector = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;
  for (const deployment of (await client.resource(deploymentKind).list({ labelSelector: selector })).items) {
    const replicas = deployment.spec?.replicas ?? 1;
    await writeStatus(client, deploymentKind, deployment, {
      observedGeneration: deployment.metadata?.generation ?? 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
    });
  }
  for (const daemonSet of (await client.resource(daemonSetKind).list({ labelSelector: selector })).items) {
    await writeStatus(client, daemonSetKind, daemonSet, {
      observedGeneration: daemonSet.metadata?.generation ?? 1,
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      updatedNumberScheduled: 1,
      numberReady: 1,
      numberAvailable: 1,
      numberMisscheduled: 0,
    });
  }
}

async function writeStatus(
  client: KubeClient,
  kind: typeof deploymentKind,
  workload: Workload,
  status: Record<string, number>,
): Promise<void> {
  const { namespace, name } = workload.metadata ?? {};
  await client
    .resource(kind)
    .mergePatch({ namespace: namespace ?? "", name: name ?? "" }, { status }, { subresource: "status" });
}

/** Waits until the operator has finished `count` more reconciles than `since`. */
export async function reconciledAfter(operator: RunningOperator, since: number, count = 1): Promise<void> {
  await eventually(`${count} more reconciles`, async () =>
    (await operator.reconciles()) >= since + count ? true : undefined,
  );
}
