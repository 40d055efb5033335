/**
 * For virt-controller's tests: plays the kubelet of one node for launcher and hotplug attachment
 * pods (the real scheduler binds them). A bound pod runs, unless the test told it to fail or to wait on its
 * image; a pod being deleted is removed at once, as a kubelet does once its container stopped.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import {
  type Frozen,
  isConflict,
  isNotFound,
  Manager,
  type ReconcileRequest,
  wireTime,
} from "../../runtime/index.js";
import { type Pod, podKind } from "../kinds.js";
import { LAUNCHER } from "../vmi/launcher-pod.js";
import { VMI_PODS_SELECTOR } from "../vmi/vmi-pods.js";

/** What the node does with the launcher pod of a VMI (by VMI name). */
export type PodBehaviour = "run" | "fail" | "pull-error";

export class LauncherKubelet {
  readonly #manager: Manager;
  readonly #node: string;
  readonly #behaviours = new Map<string, PodBehaviour>();
  #enqueue: (key: string) => void = () => {};
  #allPods: () => readonly Frozen<Pod>[] = () => [];

  private constructor(kubeConfig: KubeConfig, node: string, log: Logger) {
    this.#node = node;
    this.#manager = new Manager({ name: "test-kubelet", kubeConfig, log, gracefulShutdownMs: 2000 });
    const pods = this.#manager.informer(podKind, { labelSelector: VMI_PODS_SELECTOR });
    const controller = this.#manager.controller({
      name: "test-kubelet",
      workers: 4,
      reconcile: async (request) => {
        const pod = pods.get(request.key);
        if (pod) await this.#step(request, pod);
        return {};
      },
    });
    controller.watch(pods);
    this.#enqueue = (key) => controller.enqueue(key);
    this.#allPods = () => pods.list();
  }

  static async start(kubeConfig: KubeConfig, node: string, log: Logger): Promise<LauncherKubelet> {
    const kubelet = new LauncherKubelet(kubeConfig, node, log);
    await kubelet.#manager.start();
    return kubelet;
  }

  /** From now on, the launcher pods of VMI `vmiName` behave so (existing ones change too). */
  behave(vmiName: string, behaviour: PodBehaviour): void {
    this.#behaviours.set(vmiName, behaviour);
    for (const pod of this.#allPods()) {
      if (pod.metadata?.labels?.[LAUNCHER.vmNameLabel] === vmiName)
        this.#enqueue(`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`);
    }
  }

  stop(): Promise<void> {
    return this.#manager.stop();
  }

  async #step(request: ReconcileRequest, pod: Frozen<Pod>): Promise<void> {
    if (pod.spec?.nodeName !== this.#node) return;
    const ref = { namespace: request.namespace ?? "", name: request.name };
    const pods = this.#manager.client.resource(podKind);
    try {
      if (pod.metadata?.deletionTimestamp) {
        await pods.delete(ref, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? "" } });
        return;
      }
      const status = this.#statusFor(pod);
      if (status.phase === pod.status?.phase && reasonOf(status) === reasonOf(pod.status)) return;
      await pods.mergePatch(ref, { status }, { subresource: "status" });
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
  }

  #statusFor(pod: Frozen<Pod>): NonNullable<Pod["status"]> {
    const behaviour = this.#behaviours.get(pod.metadata?.labels?.[LAUNCHER.vmNameLabel] ?? "") ?? "run";
    const now = wireTime(Date.now());
    const image = pod.spec?.containers[0]?.image ?? "";
    const container = (state: object, ready: boolean) => ({
      name: pod.spec?.containers[0]?.name ?? LAUNCHER.container,
      image,
      imageID: "",
      ready,
      restartCount: 0,
      started: ready,
      state,
    });
    const conditions = (ready: "True" | "False") => [
      { type: "PodScheduled", status: "True", lastTransitionTime: now },
      { type: "Initialized", status: "True", lastTransitionTime: now },
      { type: "ContainersReady", status: ready, lastTransitionTime: now },
      { type: "Ready", status: ready, lastTransitionTime: now },
    ];
    if (behaviour === "fail") {
      return {
        phase: "Failed",
        conditions: conditions("False"),
        containerStatuses: [
          container(
            {
              terminated: { exitCode: 1, reason: "Error", message: "the launcher crashed", finishedAt: now },
            },
            false,
          ),
        ],
      };
    }
    if (behaviour === "pull-error") {
      return {
        phase: "Pending",
        conditions: conditions("False"),
        containerStatuses: [
          container(
            { waiting: { reason: "ErrImagePull", message: `pull access denied for ${image}` } },
            false,
          ),
        ],
      };
    }
    return {
      phase: "Running",
      podIP: "10.244.0.10",
      startTime: now,
      conditions: conditions("True"),
      containerStatuses: [container({ running: { startedAt: now } }, true)],
    };
  }
}

function reasonOf(status: Frozen<Pod>["status"] | Pod["status"]): string | undefined {
  const state = status?.containerStatuses?.[0]?.state;
  return state?.waiting?.reason ?? state?.terminated?.reason ?? (state?.running ? "running" : undefined);
}
