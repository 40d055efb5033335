import type { KubeConfig } from "@kubernetes/client-node";
import type { Logger } from "pino";
import { type Clock, Manager, type ManagerExit, systemClock } from "../../runtime/index.js";
import { addPodSchedulingController } from "./pod-scheduling-controller.js";

export interface SchedulerOptions {
  kubeConfig: KubeConfig;
  log: Logger;
  clock?: Clock;
  /** Pods whose spec.schedulerName is this are ours; also the Events' source (default "default-scheduler"). */
  schedulerName?: string;
  /** Bindings in flight at once (default 16). Placement itself is one pod at a time. */
  parallelism?: number;
  /**
   * Look at an unschedulable pod again after this long even if nothing in the cluster changed
   * (default 5 min, kube-scheduler's podMaxInUnschedulablePodsDuration).
   */
  unschedulableRetryMs?: number;
  /** How long a pod waits for its claims to be bound before its cycle fails (default 10 min, as kube). */
  volumeBindTimeoutMs?: number;
}

export interface RunningScheduler {
  /** Resolves when the scheduler stopped, saying why ("failed" means it needs a restart). */
  readonly done: Promise<ManagerExit>;
  /** Resolves once the pod and node caches are filled and placements can start. */
  synced(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The dev cluster's kube-scheduler, a process of its own as kube-scheduler is (its own Manager:
 * informers, client, events under its name): pods whose schedulerName is ours and that have no
 * node are placed and bound by the pod scheduling controller. Everything is read from informers:
 * a restarted scheduler picks up where it was.
 */
export class Scheduler {
  readonly #manager: Manager;

  constructor(options: SchedulerOptions) {
    const schedulerName = options.schedulerName ?? "default-scheduler";
    const clock = options.clock ?? systemClock;
    this.#manager = new Manager({
      name: schedulerName,
      kubeConfig: options.kubeConfig,
      log: options.log,
      clock,
    });
    addPodSchedulingController(this.#manager, {
      schedulerName,
      clock,
      parallelism: options.parallelism ?? 16,
      unschedulableRetryMs: options.unschedulableRetryMs ?? 5 * 60_000,
      volumeBindTimeoutMs: options.volumeBindTimeoutMs ?? 10 * 60_000,
    });
  }

  get done(): Promise<ManagerExit> {
    return this.#manager.done;
  }

  start(): Promise<void> {
    return this.#manager.start();
  }

  synced(): Promise<boolean> {
    return this.#manager.cache.waitForSync();
  }

  stop(): Promise<void> {
    return this.#manager.stop();
  }
}

/** Starts the scheduler; it runs until `stop()`. */
export async function startScheduler(options: SchedulerOptions): Promise<RunningScheduler> {
  const scheduler = new Scheduler(options);
  await scheduler.start();
  return scheduler;
}
