import type { Logger } from "pino";
import { customResourceTypes } from "../crd/custom-resource-type.js";
import type { JsonObject } from "../json.js";
import { nameOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { CRDS, CrdReconciler } from "./crd-reconciler.js";
import { KeyQueue } from "./key-queue.js";

export { CRD_CLEANUP_FINALIZER } from "./crd-reconciler.js";

/**
 * Serves what CRDs define: a stored CRD's versions are registered as resources the moment its
 * write commits (so a client's next request finds them), and every change to a CRD queues it
 * for the CrdReconciler (status, cleanup finalizer, custom resources of a deleted CRD).
 */
export class CrdLifecycle {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #log: Logger;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    this.#log = log.child({ controller: "crd-lifecycle" });
    const reconciler = new CrdReconciler({ service });
    this.#queue = new KeyQueue((name) => reconciler.reconcile(name), this.#log);
    for (const crd of service.store.list(CRDS)) this.#serve(crd);
    this.#stopWatching = service.store.onChange((event) => {
      if (event.resource !== CRDS) return;
      if (event.type === "DELETED") service.registry.removeCustom(event.name);
      else this.#serve(JSON.parse(event.data) as JsonObject);
      this.#queue.add(event.name);
    });
  }

  stop(): void {
    this.#stopWatching();
    this.#queue.stop();
  }

  #serve(crd: JsonObject): void {
    try {
      this.#service.registry.setCustom(nameOf(crd), customResourceTypes(crd));
    } catch (error) {
      // A CRD that passed validation should always convert; if not, it is served by nothing rather than crash the server.
      this.#log.error({ err: error, crd: nameOf(crd) }, "cannot serve custom resource definition");
      this.#service.registry.removeCustom(nameOf(crd));
    }
    this.#queue.add(nameOf(crd));
  }
}
