import type { Logger } from "pino";
import { nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { KeyQueue } from "./key-queue.js";
import { NAMESPACES, NamespaceReconciler } from "./namespace-reconciler.js";

/**
 * Namespace deletion, in the API server's process: a change to a namespace, or the deletion of
 * anything in one, queues it for the NamespaceReconciler. Also creates the namespaces every
 * cluster starts with.
 */
export class NamespaceLifecycle {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    const reconciler = new NamespaceReconciler({ service });
    this.#queue = new KeyQueue(
      (name) => reconciler.reconcile(name),
      log.child({ controller: "namespace-lifecycle" }),
    );
    this.#stopWatching = service.store.onChange((event) => {
      if (event.resource === NAMESPACES) this.#queue.add(event.name);
      else if (event.type === "DELETED" && event.namespace !== "") this.#queue.add(event.namespace);
    });
    for (const ns of service.store.list(NAMESPACES)) this.#queue.add(nameOf(ns));
  }

  /** Creates default, kube-system, kube-public and kube-node-lease when missing. */
  ensureInitialNamespaces(): void {
    const type = this.#service.registry.find("", "v1", "namespaces");
    if (!type) throw new Error("the namespaces resource is not registered");
    for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
      if (this.#service.find(type, "", name)) continue;
      this.#service.create(
        type,
        "",
        { apiVersion: "v1", kind: "Namespace", metadata: { name } },
        { fieldManager: "dev-cluster" },
      );
    }
  }

  stop(): void {
    this.#stopWatching();
    this.#queue.stop();
  }
}
