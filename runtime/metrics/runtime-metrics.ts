import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { ControllerMetrics } from "../controller/reconcile-result.js";
import { reconcileOutcomes } from "../controller/reconcile-result.js";
import type { InformerMetrics } from "../informer/informer-metrics.js";
import type { QueueMetrics } from "../queue/queue-metrics.js";

const reconcileBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const queueBuckets = [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

/**
 * The runtime's metrics, on a registry the caller owns (never prom-client's global one), named
 * as controller-runtime and client-go name theirs. No per-object labels: series are per
 * controller, queue or kind, and created as soon as one is registered so they exist before the
 * first event.
 */
export class RuntimeMetrics {
  readonly registry: Registry;
  readonly #reconcileTotal: Counter<"controller" | "result">;
  readonly #reconcileErrors: Counter<"controller">;
  readonly #terminalErrors: Counter<"controller">;
  readonly #reconcileTime: Histogram<"controller" | "result">;
  readonly #activeWorkers: Gauge<"controller">;
  readonly #maxWorkers: Gauge<"controller">;
  readonly #queueDepth: Gauge<"name">;
  readonly #queueAdds: Counter<"name">;
  readonly #queueRetries: Counter<"name">;
  readonly #queueLatency: Histogram<"name">;
  readonly #workDuration: Histogram<"name">;
  readonly #informerLists: Counter<"kind">;
  readonly #informerWatches: Counter<"kind">;
  readonly #informerErrors: Counter<"kind">;
  readonly #informerObjects: Gauge<"kind">;
  readonly #leader: Gauge<"name">;

  constructor(registry: Registry) {
    this.registry = registry;
    const registers = [registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Gauge<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers });

    this.#reconcileTotal = counter(
      "controller_runtime_reconcile_total",
      "Reconciles per controller and result.",
      ["controller", "result"],
    );
    this.#reconcileErrors = counter(
      "controller_runtime_reconcile_errors_total",
      "Reconciles that failed and will be retried.",
      ["controller"],
    );
    this.#terminalErrors = counter(
      "controller_runtime_terminal_reconcile_errors_total",
      "Reconciles that failed with a terminal error (not retried).",
      ["controller"],
    );
    this.#reconcileTime = histogram(
      "controller_runtime_reconcile_time_seconds",
      "Time per reconcile, by controller and result.",
      ["controller", "result"],
      reconcileBuckets,
    );
    this.#activeWorkers = gauge("controller_runtime_active_workers", "Workers running a reconcile now.", [
      "controller",
    ]);
    this.#maxWorkers = gauge("controller_runtime_max_concurrent_reconciles", "Workers per controller.", [
      "controller",
    ]);
    this.#queueDepth = gauge("workqueue_depth", "Keys waiting in the work queue.", ["name"]);
    this.#queueAdds = counter("workqueue_adds_total", "Keys added to the work queue.", ["name"]);
    this.#queueRetries = counter("workqueue_retries_total", "Keys re-queued with backoff.", ["name"]);
    this.#queueLatency = histogram(
      "workqueue_queue_duration_seconds",
      "Time a key waits in the queue.",
      ["name"],
      queueBuckets,
    );
    this.#workDuration = histogram(
      "workqueue_work_duration_seconds",
      "Time a worker holds a key.",
      ["name"],
      queueBuckets,
    );
    this.#informerLists = counter("informer_lists_total", "Full lists (initial, and after a 410).", ["kind"]);
    this.#informerWatches = counter("informer_watches_total", "Watches opened.", ["kind"]);
    this.#informerErrors = counter(
      "informer_errors_total",
      "Failed lists and watches (retried with backoff).",
      ["kind"],
    );
    this.#informerObjects = gauge("informer_objects", "Objects in the informer's cache.", ["kind"]);
    this.#leader = gauge("leader_election_master_status", "1 while this process holds the lease.", ["name"]);
  }

  forController(controller: string, workers: number): ControllerMetrics {
    for (const result of reconcileOutcomes) {
      this.#reconcileTotal.inc({ controller, result }, 0);
      this.#reconcileTime.zero({ controller, result });
    }
    this.#reconcileErrors.inc({ controller }, 0);
    this.#terminalErrors.inc({ controller }, 0);
    this.#activeWorkers.set({ controller }, 0);
    this.#maxWorkers.set({ controller }, workers);
    return {
      reconciled: (result, seconds) => {
        this.#reconcileTotal.inc({ controller, result });
        this.#reconcileTime.observe({ controller, result }, seconds);
        if (result === "error") this.#reconcileErrors.inc({ controller });
        if (result === "terminal_error") this.#terminalErrors.inc({ controller });
      },
      activeWorkers: (delta) => this.#activeWorkers.inc({ controller }, delta),
    };
  }

  forQueue(name: string): QueueMetrics {
    this.#queueDepth.set({ name }, 0);
    this.#queueAdds.inc({ name }, 0);
    this.#queueRetries.inc({ name }, 0);
    this.#queueLatency.zero({ name });
    this.#workDuration.zero({ name });
    return {
      added: () => this.#queueAdds.inc({ name }),
      depth: (count) => this.#queueDepth.set({ name }, count),
      waited: (seconds) => this.#queueLatency.observe({ name }, seconds),
      worked: (seconds) => this.#workDuration.observe({ name }, seconds),
      retried: () => this.#queueRetries.inc({ name }),
    };
  }

  forInformer(kind: string): InformerMetrics {
    this.#informerLists.inc({ kind }, 0);
    this.#informerWatches.inc({ kind }, 0);
    this.#informerErrors.inc({ kind }, 0);
    this.#informerObjects.set({ kind }, 0);
    return {
      listed: () => this.#informerLists.inc({ kind }),
      watchStarted: () => this.#informerWatches.inc({ kind }),
      failed: () => this.#informerErrors.inc({ kind }),
      objects: (count) => this.#informerObjects.set({ kind }, count),
    };
  }

  leaderStatus(name: string, leading: boolean): void {
    this.#leader.set({ name }, leading ? 1 : 0);
  }
}
