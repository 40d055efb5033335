import type { ReconcileResult } from "../../../runtime/index.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { deleteObject, NAMESPACE_FINALIZER } from "../objects/deletion.js";
import { finalizersOf, isBeingDeleted, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { storageResource } from "../registry/resource-registry.js";
import type { ObjectKey } from "../storage/object-store.js";

export const NAMESPACES = "/namespaces";

export interface NamespaceReconcilerDeps {
  service: ObjectService;
}

/**
 * One namespace being deleted, from the store: everything it holds is deleted; once nothing is
 * left its `kubernetes` finalizer is removed and the namespace goes. Its objects' deletions bring
 * it back (their DELETED events), so nothing waits on a timer.
 */
export class NamespaceReconciler {
  readonly #deps: NamespaceReconcilerDeps;

  constructor(deps: NamespaceReconcilerDeps) {
    this.#deps = deps;
  }

  reconcile(name: string): ReconcileResult {
    const { service } = this.#deps;
    const key: ObjectKey = { resource: NAMESPACES, namespace: "", name };
    const namespace = service.store.get(key);
    if (!namespace || !isBeingDeleted(namespace)) return {};
    let remaining = 0;
    const seen = new Set<string>();
    for (const type of service.registry.all()) {
      const resource = storageResource(type);
      if (!type.namespaced || seen.has(resource)) continue;
      seen.add(resource);
      for (const object of service.store.list(resource, name)) {
        remaining++;
        if (!isBeingDeleted(object)) deleteObject(service, type, namespaceOf(object), nameOf(object), {});
      }
    }
    if (remaining === 0) this.#finalize(key, namespace);
    return {};
  }

  /** Nothing is left: drop the `kubernetes` finalizer (spec.finalizers) and remove the namespace when no other finalizer holds it. */
  #finalize(key: ObjectKey, namespace: JsonObject): void {
    const { store } = this.#deps.service;
    const spec = isJsonObject(namespace.spec) ? namespace.spec : {};
    const specFinalizers = (Array.isArray(spec.finalizers) ? spec.finalizers : []).filter(
      (f) => f !== NAMESPACE_FINALIZER,
    );
    const updated = structuredClone(namespace);
    updated.spec = { ...spec, finalizers: specFinalizers };
    const removable = specFinalizers.length === 0 && finalizersOf(namespace).length === 0;
    if (!removable) {
      if (specFinalizers.length !== (Array.isArray(spec.finalizers) ? spec.finalizers.length : 0)) {
        store.commit([{ type: "put", key, object: updated }]);
      }
      return;
    }
    store.commit([{ type: "delete", key, object: updated }]);
  }
}
