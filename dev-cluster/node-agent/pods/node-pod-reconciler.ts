import type { Logger } from "pino";
import type { ReconcileRequest, ReconcileResult, SharedInformer } from "../../../runtime/index.js";
import type { CachedPod, Pod } from "../kinds.js";
import type { ContainerInstances } from "../logs/container-log-source.js";
import { type AdoptionReport, adoptPreviousRun } from "./adoption.js";
import { PodWorker } from "./pod-worker.js";
import type { SimulatedPods } from "./simulated-pods.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface NodePodReconcilerDeps {
  deps: WorkerDeps;
  nodeName: string;
  simulatedNodes: ReadonlySet<string>;
  simulated: SimulatedPods;
  pods: SharedInformer<Pod>;
  log: Logger;
}

/**
 * The pods bound to this agent's nodes: a worker per local pod (by uid, since names are
 * reused), simulated pods for the simulated nodes; node-pod-controller.ts wires its reconcile.
 * Nothing runs before the previous run has been adopted (`adoption` gates the workers).
 */
export class NodePodReconciler implements ContainerInstances {
  readonly #options: NodePodReconcilerDeps;
  readonly #workers = new Map<string, PodWorker>();
  #adopted = false;
  readonly #adoptionWaiters: (() => void)[] = [];

  constructor(options: NodePodReconcilerDeps) {
    this.#options = options;
  }

  /** Keys of pods this agent runs (for the informer's event handler). */
  readonly keysOf = (pod: CachedPod): readonly string[] => {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName || (nodeName !== this.#options.nodeName && !this.#options.simulatedNodes.has(nodeName)))
      return [];
    return [`${pod.metadata?.namespace ?? ""}/${pod.metadata?.name ?? ""}`];
  };

  /** What the controller waits for before its workers start. */
  readonly adoption = {
    waitForSync: (signal?: AbortSignal): Promise<boolean> => {
      if (this.#adopted) return Promise.resolve(true);
      return new Promise((resolve) => {
        this.#adoptionWaiters.push(() => resolve(true));
        signal?.addEventListener("abort", () => resolve(false), { once: true });
      });
    },
  };

  /** Takes over the previous run (the pod cache must have synced), then lets the workers start. */
  async adopt(): Promise<AdoptionReport> {
    const { workers, report } = await adoptPreviousRun(
      this.#options.deps,
      this.#options.nodeName,
      this.#options.pods.list(),
    );
    for (const worker of workers) this.#workers.set(worker.uid, worker);
    this.#adopted = true;
    for (const waiter of this.#adoptionWaiters.splice(0)) waiter();
    return report;
  }

  async reconcile({ key }: ReconcileRequest): Promise<ReconcileResult> {
    const pod = this.#options.pods.get(key);
    const uid = pod?.metadata?.uid;
    const nodeName = pod?.spec?.nodeName;
    const delays: number[] = [];
    const stale = [...this.#workers.values()].filter((worker) => worker.key === key && worker.uid !== uid);
    for (const worker of stale) {
      const outcome = await worker.sync(undefined);
      if (outcome.finished) this.#workers.delete(worker.uid);
      if (outcome.requeueAfterMs !== undefined) delays.push(outcome.requeueAfterMs);
    }
    if (!pod || !uid) this.#options.simulated.forget(key);
    else if (nodeName && this.#options.simulatedNodes.has(nodeName))
      await this.#options.simulated.sync(key, pod);
    else if (nodeName === this.#options.nodeName) {
      const outcome = await this.#workerFor(pod, uid)?.sync(pod);
      if (outcome?.requeueAfterMs !== undefined) delays.push(outcome.requeueAfterMs);
    }
    return delays.length > 0 ? { requeueAfterMs: Math.min(...delays) } : {};
  }

  instance(podUid: string, container: string): { current: number; running: boolean } | undefined {
    return this.#workers.get(podUid)?.instance(container);
  }

  /** The agent stops: leave pods running for the next agent, or take them down. */
  async stop(stopPods: boolean, maxGraceMs: number): Promise<void> {
    const workers = [...this.#workers.values()];
    if (stopPods) await Promise.all(workers.map((worker) => worker.shutDown(maxGraceMs)));
    for (const worker of workers) worker.release();
    this.#workers.clear();
  }

  #workerFor(pod: CachedPod, uid: string): PodWorker | undefined {
    const existing = this.#workers.get(uid);
    if (existing) return existing;
    const phase = pod.status?.phase;
    // A finished pod is never run again; one being deleted still gets its final delete.
    if ((phase === "Succeeded" || phase === "Failed") && !pod.metadata?.deletionTimestamp) return undefined;
    const worker = PodWorker.create(this.#options.deps, pod);
    this.#workers.set(uid, worker);
    return worker;
  }
}
