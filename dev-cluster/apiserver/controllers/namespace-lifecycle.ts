import type { Logger } from "pino";
import { isJsonObject, type JsonObject } from "../json.js";
import { deleteObject, NAMESPACE_FINALIZER } from "../objects/deletion.js";
import { finalizersOf, isBeingDeleted, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { storageResource } from "../registry/resource-registry.js";
import type { ObjectKey } from "../storage/object-store.js";
import { KeyQueue } from "./key-queue.js";

const NAMESPACES = "/namespaces";

/**
 * Namespace deletion, in the API server's process: a namespace with a deletionTimestamp has
 * everything it holds deleted; once nothing is left its `kubernetes` finalizer is removed and
 * the namespace goes. Also creates the namespaces every cluster starts with.
 */
export class NamespaceLifecycle {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    this.#queue = new KeyQueue(
      (name) => this.#reconcile(name),
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

  #reconcile(name: string): void {
    const key: ObjectKey = { resource: NAMESPACES, namespace: "", name };
    const namespace = this.#service.store.get(key);
    if (!namespace || !isBeingDeleted(namespace)) return;
    let remaining = 0;
    const seen = new Set<string>();
    for (const type of this.#service.registry.all()) {
      const resource = storageResource(type);
      if (!type.namespaced || seen.has(resource)) continue;
      seen.add(resource);
      for (const object of this.#service.store.list(resource, name)) {
        remaining++;
        if (!isBeingDeleted(object))
          deleteObject(this.#service, type, namespaceOf(object), nameOf(object), {});
      }
    }
    if (remaining > 0) return;
    this.#finalize(key, namespace);
  }

  /** Nothing is left: drop the `kubernetes` finalizer (spec.finalizers) and remove the namespace when no other finalizer holds it. */
  #finalize(key: ObjectKey, namespace: JsonObject): void {
    const spec = isJsonObject(namespace.spec) ? namespace.spec : {};
    const specFinalizers = (Array.isArray(spec.finalizers) ? spec.finalizers : []).filter(
      (f) => f !== NAMESPACE_FINALIZER,
    );
    const updated = structuredClone(namespace);
    updated.spec = { ...spec, finalizers: specFinalizers };
    const removable = specFinalizers.length === 0 && finalizersOf(namespace).length === 0;
    if (!removable) {
      if (specFinalizers.length !== (Array.isArray(spec.finalizers) ? spec.finalizers.length : 0)) {
        this.#service.store.commit([{ type: "put", key, object: updated }]);
      }
      return;
    }
    this.#service.store.commit([{ type: "delete", key, object: updated }]);
  }
}
