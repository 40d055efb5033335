import { wireTime } from "../../../runtime/clock/wire-time.js";
import type { ReconcileResult } from "../../../runtime/index.js";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { deleteObject } from "../objects/deletion.js";
import { finalizersOf, isBeingDeleted, meta, nameOf, namespaceOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { crdStorageVersion } from "../registry/resource-registry.js";
import type { ObjectKey } from "../storage/object-store.js";
import { removeFinalizer } from "./system-writes.js";

export const CRDS = "apiextensions.k8s.io/customresourcedefinitions";
export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

/** How soon a deleted CRD whose custom resources are still going is looked at again. */
const CLEANUP_RECHECK_MS = 200;

export interface CrdReconcilerDeps {
  service: ObjectService;
}

/**
 * One CRD, from the store: a live one gets the cleanup finalizer and NamesAccepted and
 * Established; a deleted one first has all its custom resources deleted, then loses the
 * finalizer. Writes go to the store directly, as kube-apiserver's own controllers bypass admission.
 */
export class CrdReconciler {
  readonly #deps: CrdReconcilerDeps;

  constructor(deps: CrdReconcilerDeps) {
    this.#deps = deps;
  }

  reconcile(name: string): ReconcileResult {
    const { service } = this.#deps;
    const key: ObjectKey = { resource: CRDS, namespace: "", name };
    const crd = service.store.get(key);
    if (!crd) return {};
    if (isBeingDeleted(crd)) return this.#cleanUp(key, crd);
    const updated = structuredClone(crd);
    if (!finalizersOf(crd).includes(CRD_CLEANUP_FINALIZER)) {
      meta(updated).finalizers = [...finalizersOf(crd), CRD_CLEANUP_FINALIZER];
    }
    updated.status = this.#status(crd);
    if (!jsonEqual(updated, crd)) service.store.commit([{ type: "put", key, object: updated }]);
    return {};
  }

  #status(crd: JsonObject): JsonObject {
    const spec = isJsonObject(crd.spec) ? crd.spec : {};
    const status = isJsonObject(crd.status) ? crd.status : {};
    const now = wireTime(this.#deps.service.now().getTime());
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
  #cleanUp(key: ObjectKey, crd: JsonObject): ReconcileResult {
    const { service } = this.#deps;
    const [type] = service.registry.customTypesOf(nameOf(crd));
    let remaining = 0;
    if (type) {
      for (const object of service.list(type, undefined).items) {
        remaining++;
        if (!isBeingDeleted(object)) deleteObject(service, type, namespaceOf(object), nameOf(object), {});
      }
    }
    if (remaining > 0) return { requeueAfterMs: CLEANUP_RECHECK_MS };
    removeFinalizer(service.store, key, CRD_CLEANUP_FINALIZER);
    return {};
  }
}
