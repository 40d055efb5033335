import type { Logger } from "pino";
import { KeyQueue } from "../controllers/key-queue.js";
import { nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import {
  CLUSTER_ROLES,
  ClusterRoleAggregationReconciler,
  isAggregated,
} from "./cluster-role-aggregation-reconciler.js";

/**
 * kube-controller-manager's clusterrole-aggregation controller, in the API server's process: any
 * ClusterRole's change queues every aggregated ClusterRole for the
 * ClusterRoleAggregationReconciler, which rewrites its rules when what its selectors give changed.
 */
export class ClusterRoleAggregation {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    const controllerLog = log.child({ controller: "clusterrole-aggregation" });
    const reconciler = new ClusterRoleAggregationReconciler({ service, log: controllerLog });
    this.#queue = new KeyQueue((name) => reconciler.reconcile(name), controllerLog);
    // Any ClusterRole's change (its labels, its rules, its going) may change any aggregate.
    this.#stopWatching = service.store.onChange((event) => {
      if (event.resource === CLUSTER_ROLES) this.#enqueueAggregated();
    });
    this.#enqueueAggregated();
  }

  stop(): void {
    this.#stopWatching();
    this.#queue.stop();
  }

  #enqueueAggregated(): void {
    for (const role of this.#service.store.list(CLUSTER_ROLES)) {
      if (isAggregated(role)) this.#queue.add(nameOf(role));
    }
  }
}
