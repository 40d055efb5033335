import type { Logger } from "pino";
import { wireTime } from "../../../runtime/clock/wire-time.js";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { customResourceTypes } from "../crd/custom-resource-type.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { deleteObject } from "../objects/deletion.js";
import { finalizersOf, isBeingDeleted, meta, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { crdStorageVersion } from "../registry/resource-registry.js";
import type { ObjectKey } from "../storage/object-store.js";
import { KeyQueue } from "./key-queue.js";
import { removeFinalizer } from "./system-writes.js";

const CRDS = "apiextensions.k8s.io/customresourcedefinitions";
export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

/**
 * Serves what CRDs define: a stored CRD's versions are registered as resources the moment its
 * write commits (so a client's next request finds them), its status gets NamesAccepted and
 * Established, and a deleted CRD first has all its custom resources deleted.
 */
export class CrdLifecycle {
  readonly #service: ObjectService;
  readonly #queue: KeyQueue;
  readonly #log: Logger;
  readonly #stopWatching: () => void;

  constructor(service: ObjectService, log: Logger) {
    this.#service = service;
    this.#log = log.child({ controller: "crd-lifecycle" });
    this.#queue = new KeyQueue((name) => this.#reconcile(name), this.#log);
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

  #reconcile(name: string): void {
    const key: ObjectKey = { resource: CRDS, namespace: "", name };
    const crd = this.#service.store.get(key);
    if (!crd) return;
    if (isBeingDeleted(crd)) {
      this.#cleanUp(key, crd);
      return;
    }
    const updated = structuredClone(crd);
    if (!finalizersOf(crd).includes(CRD_CLEANUP_FINALIZER)) {
      meta(updated).finalizers = [...finalizersOf(crd), CRD_CLEANUP_FINALIZER];
    }
    updated.status = this.#status(crd);
    if (!jsonEqual(updated, crd)) this.#service.store.commit([{ type: "put", key, object: updated }]);
  }

  #status(crd: JsonObject): JsonObject {
    const spec = isJsonObject(crd.spec) ? crd.spec : {};
    const status = isJsonObject(crd.status) ? crd.status : {};
    const now = wireTime(this.#service.now().getTime());
    const previous = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
    const condition = (type: string, reason: string, message: string): JsonObject => {
      const before = previous.find((c) => c.type === type);
      const lastTransitionTime = before?.status === "True" ? (before.lastTransitionTime ?? now) : now;
      return { type, status: "True", lastTransitionTime, reason, message };
    };
    const storage = crdStorageVersion(crd);
    const storedVersions = Array.isArray(status.storedVersions)
      ? status.storedVersions.filter((v) => typeof v === "string")
      : [];
    if (storage && !storedVersions.includes(storage)) storedVersions.push(storage);
    return {
      ...status,
      conditions: [
        condition("NamesAccepted", "NoConflicts", "no conflicts found for the names"),
        condition("Established", "InitialNamesAccepted", "the initial names have been accepted"),
      ],
      acceptedNames: isJsonObject(spec.names) ? spec.names : {},
      storedVersions,
    };
  }

  /** Deletes the CRD's custom resources; when none are left the cleanup finalizer goes. */
  #cleanUp(key: ObjectKey, crd: JsonObject): void {
    const [type] = this.#service.registry.customTypesOf(nameOf(crd));
    let remaining = 0;
    if (type) {
      for (const object of this.#service.list(type, undefined).items) {
        remaining++;
        if (!isBeingDeleted(object))
          deleteObject(this.#service, type, namespaceOf(object), nameOf(object), {});
      }
    }
    if (remaining === 0) removeFinalizer(this.#service.store, key, CRD_CLEANUP_FINALIZER);
    else setTimeout(() => this.#queue.add(key.name), 200);
  }
}
