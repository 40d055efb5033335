/**
 * For tests without a scheduler or node agent: plays both for the pods of a few named nodes.
 * A pending pod is bound (through pods/binding) to the node its DaemonSet affinity names, or to
 * `defaultNode`; a pod bound to one of `nodes` is reported Running and Ready with an IP, as a
 * kubelet would; a pod being deleted is removed at once (grace 0), as a kubelet does once its
 * containers stopped. `setReady` flips a pod's readiness, as a failing probe would.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Frozen,
  isConflict,
  isNotFound,
  Manager,
  objectPath,
  type ReconcileRequest,
  wireTime,
} from "../../../runtime/index.js";
import { targetNodeOf } from "../daemon-set/daemon-pod.js";
import { type Pod, podKind } from "../kinds.js";

export interface FakeKubeletOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  /** Nodes whose pods this kubelet runs. */
  nodes: readonly string[];
  /** Where pods without a DaemonSet affinity are bound (default the first node). */
  defaultNode?: string;
}

export class FakeKubelet {
  readonly #manager: Manager;
  readonly #options: FakeKubeletOptions;
  readonly #notReady = new Set<string>();
  #nextIp = 2;

  private constructor(options: FakeKubeletOptions) {
    this.#options = options;
    this.#manager = new Manager({
      name: "fake-kubelet",
      kubeConfig: options.kubeConfig,
      log: options.log,
      gracefulShutdownMs: 5000,
    });
    const pods = this.#manager.informer(podKind);
    const controller = this.#manager.controller({
      name: "fake-kubelet",
      workers: 4,
      reconcile: async (request) => {
        const pod = pods.get(request.key);
        if (pod) await this.#step(request, pod);
        return {};
      },
    });
    controller.watch(pods);
  }

  static async start(options: FakeKubeletOptions): Promise<FakeKubelet> {
    const kubelet = new FakeKubelet(options);
    await kubelet.#manager.start();
    return kubelet;
  }

  /** Makes a pod ready or not ready (it stays Running). */
  async setReady(namespace: string, name: string, ready: boolean): Promise<void> {
    const key = `${namespace}/${name}`;
    if (ready) this.#notReady.delete(key);
    else this.#notReady.add(key);
    const pod = await this.#manager.client.resource(podKind).get({ namespace, name });
    await this.#writeRunning(pod, pod.status?.podIP ?? this.#allocateIp());
  }

  stop(): Promise<void> {
    return this.#manager.stop();
  }

  async #step(request: ReconcileRequest, pod: Frozen<Pod>): Promise<void> {
    const ref = { namespace: request.namespace ?? "", name: request.name };
    const pods = this.#manager.client.resource(podKind);
    try {
      if (pod.metadata?.deletionTimestamp) {
        await pods.delete(ref, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? "" } });
        return;
      }
      const node = pod.spec?.nodeName;
      if (!node) {
        await this.#bind(ref, targetNodeOf(pod) ?? this.#options.defaultNode ?? this.#options.nodes[0] ?? "");
        return;
      }
      if (!this.#options.nodes.includes(node)) return;
      const wantReady = !this.#notReady.has(request.key);
      const isReady = pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
      if (pod.status?.phase === "Running" && pod.status.podIP && wantReady === isReady) return;
      await this.#writeRunning(pod, pod.status?.podIP ?? this.#allocateIp());
    } catch (error) {
      // The pod moved on (deleted, bound elsewhere) since the cache saw it: its next event decides.
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
  }

  async #bind(ref: { namespace: string; name: string }, node: string): Promise<void> {
    await this.#manager.client.transport.json({
      method: "POST",
      path: objectPath(podKind, ref, "binding"),
      body: {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: ref.name },
        target: { apiVersion: "v1", kind: "Node", name: node },
      },
    });
  }

  async #writeRunning(pod: Frozen<Pod>, ip: string): Promise<void> {
    const now = wireTime(Date.now());
    const ready = this.#notReady.has(`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`)
      ? "False"
      : "True";
    const condition = (type: string, status: string) => ({
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: now,
    });
    await this.#manager.client.resource(podKind).mergePatch(
      { namespace: pod.metadata?.namespace ?? "", name: pod.metadata?.name ?? "" },
      {
        status: {
          phase: "Running",
          podIP: ip,
          podIPs: [{ ip }],
          hostIP: "10.0.0.1",
          startTime: pod.status?.startTime ?? now,
          conditions: [
            condition("PodScheduled", "True"),
            condition("Initialized", "True"),
            condition("ContainersReady", ready),
            condition("Ready", ready),
          ],
          containerStatuses: (pod.spec?.containers ?? []).map((container) => ({
            name: container.name,
            image: container.image ?? "",
            imageID: "",
            ready: ready === "True",
            started: true,
            restartCount: 0,
            state: { running: { startedAt: now } },
          })),
        },
      },
      { subresource: "status" },
    );
  }

  #allocateIp(): string {
    const n = this.#nextIp++;
    return `10.244.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  }
}
